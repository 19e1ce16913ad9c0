/* fathom: wolfCrypt settings shared by every wolfSSL configuration (bare-metal Cortex-M, the
 * fathom harness). A configuration adds its math and assembly options on top (suites/wolfssl.toml);
 * nothing here depends on them, because they are defined after this file is read.
 *
 * What is built: wolfCrypt only (no TLS), SHA-256, HMAC, HKDF, AES-128 (GCM), the Hash_DRBG,
 * and ECC on P-256 only (ECDH, ECDSA) on SP math. Everything else is switched off, which also
 * restricts wolfCrypt's own self-test (wolfcrypt/test/test.c) to these algorithms. */
#ifndef FATHOM_WOLFSSL_SETTINGS_H
#define FATHOM_WOLFSSL_SETTINGS_H

/* --- platform: no OS, no files, no sockets, no clock, one thread */
#define WOLFCRYPT_ONLY
#define SINGLE_THREADED
#define NO_FILESYSTEM
#define NO_WRITEV
#define WOLFSSL_NO_SOCK
#define WOLFSSL_USER_IO
#define NO_DEV_RANDOM
#define NO_ASN_TIME
#define WOLFSSL_GENERAL_ALIGNMENT 4
#define SIZEOF_LONG_LONG 8
#define WOLFSSL_IGNORE_FILE_WARN /* port/ files that a configuration does not use */
/* newlib declares strcasecmp only for POSIX/BSD builds, and the firmware builds with -std=c11;
 * the function itself is in the C library. */
int strcasecmp(const char *s1, const char *s2);

/* --- randomness: wolfCrypt's Hash_DRBG (SHA-256), seeded from the harness's deterministic
 * generator (fathom_random_bytes) so that every run of an image is reproducible. */
int fathom_wolfssl_seed(unsigned char *output, unsigned int len);
#define CUSTOM_RAND_GENERATE_SEED fathom_wolfssl_seed

/* --- algorithms */
#define NO_RSA
#define NO_DH
#define NO_DSA
#define NO_DES3
#define NO_RC4
#define NO_MD4
#define NO_MD5
#define NO_SHA
#define NO_PWDBASED
#define NO_PSK
#define NO_OLD_TLS
#define NO_CERTS
#define WOLFSSL_NO_SHAKE128
#define WOLFSSL_NO_SHAKE256

#define HAVE_HKDF

/* All AES key sizes stay built (the workloads use AES-128): with NO_AES_192, 5.7.2's
 * WOLFSSL_ARMASM wc_AesSetKey (port/arm/armv8-aes.c) still accepts 24-byte keys, and the
 * self-test's check that it refuses them fails (test.c "AES test failed! error L=10186"). */
#define HAVE_AESGCM
#define GCM_TABLE_4BIT        /* 4-bit tables, as Mbed TLS's GCM uses */
#define WOLFSSL_AES_DIRECT

#define HAVE_ECC
#define ECC_USER_CURVES       /* P-256 only (NO_ECC256 not defined) */
#define ECC_TIMING_RESISTANT
#define ECC_SHAMIR
#define USE_ECC_B_PARAM              /* wc_ecc_point_is_on_curve: ECDH checks the peer point */
#define WOLFSSL_ECDSA_DETERMINISTIC_K /* RFC 6979 nonces, as the Mbed TLS workloads use */
#define WC_RSA_BLINDING

/* --- big-number math: SP (single precision) for every configuration; the specialised P-256
 * code comes from sp_c32.c (portable C) or sp_cortexm.c (WOLFSSL_SP_ARM_CORTEX_M_ASM). */
#define WOLFSSL_SP_MATH_ALL
#define WOLFSSL_HAVE_SP_ECC
#define WOLFSSL_SP_NO_3072
#define SP_INT_BITS 256

/* --- the on-target self-test (wolfcrypt/test/test.c as a library function) */
#define NO_MAIN_DRIVER
#define BENCH_EMBEDDED
#define USE_CERT_BUFFERS_256
int fathom_wolfcrypt_test_printf(const char *format, ...);
#define XPRINTF fathom_wolfcrypt_test_printf

#endif /* FATHOM_WOLFSSL_SETTINGS_H */
