/* fathom: Mbed TLS user configuration for a bare-metal Cortex-M target without an OS.
 *
 * Used as MBEDTLS_USER_CONFIG_FILE, so it is applied after the library's default
 * include/mbedtls/mbedtls_config.h. It holds ONLY what a target with newlib, no file system,
 * no sockets, no wall clock and no OS entropy source needs; every other option keeps the
 * Mbed TLS default (MBEDTLS_ECP_NIST_OPTIM stays on). Configurations that remove options are
 * built by the host tool appending #undef lines after this file. */
#ifndef FATHOM_MBEDTLS_PLATFORM_H
#define FATHOM_MBEDTLS_PLATFORM_H

/* No file system: fopen/readdir-based code (x509 path loading, key files) cannot link. */
#undef MBEDTLS_FS_IO
/* No BSD sockets (net_sockets.c needs <sys/socket.h>). */
#undef MBEDTLS_NET_C
/* No OS timers (timing.c needs Unix or Windows). */
#undef MBEDTLS_TIMING_C
/* No time() / millisecond clock (platform_util.c has no mbedtls_ms_time for this target). */
#undef MBEDTLS_HAVE_TIME
/* No calendar time (gmtime_r) for certificate validity checks. */
#undef MBEDTLS_HAVE_TIME_DATE
/* PSA internal trusted storage in files needs stdio files. */
#undef MBEDTLS_PSA_ITS_FILE_C
/* Persistent PSA keys need an ITS backend; all keys here are volatile. */
#undef MBEDTLS_PSA_CRYPTO_STORAGE_C

/* No /dev/urandom or getrandom(): entropy_poll.c refuses to build without this. */
#define MBEDTLS_NO_PLATFORM_ENTROPY
/* Entropy comes from mbedtls_hardware_poll() in entropy_hardware_alt.c (the harness's
 * deterministic test generator, so runs are reproducible). */
#define MBEDTLS_ENTROPY_HARDWARE_ALT

#endif /* FATHOM_MBEDTLS_PLATFORM_H */
