/* fathom: small helpers shared by the wolfSSL (wolfCrypt) workloads. */
#ifndef FATHOM_WORKLOADS_WOLFSSL_WOLF_UTIL_H
#define FATHOM_WORKLOADS_WOLFSSL_WOLF_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/random.h>

#include "fathom_harness.h"

/* The one wolfCrypt random generator (Hash_DRBG, seeded through fathom_wolfssl_seed) every
 * operation draws from; `wl_rng_ready` initializes it on first use and returns 0 on success or
 * a (negative) wolfCrypt error code. Setup hooks call it, so it is never timed. */
extern WC_RNG wl_rng;
int wl_rng_ready(void);

/* Reports vector `name` as failed (an API error left nothing to compare with `expected`). */
static inline void wl_kat_api_error(const char *name, const void *expected, size_t len) {
  (void)fathom_kat_check(name, NULL, expected, len);
}

/* Writes "<base><suffix>" into `out` (`size` bytes, always NUL-terminated, truncated if too
 * long) and returns `out`: derived vector names such as "gcm-tc4-bad-tag". */
static inline const char *wl_vector_name(char *out, size_t size, const char *base,
                                         const char *suffix) {
  size_t n = 0;
  for (const char *p = base; *p != '\0' && n + 1 < size; ++p) out[n++] = *p;
  for (const char *p = suffix; *p != '\0' && n + 1 < size; ++p) out[n++] = *p;
  out[n] = '\0';
  return out;
}

/* Fills `out` with a fixed, non-trivial byte pattern: the same bytes as the Mbed TLS workloads'
 * inputs, so both libraries time the same data. */
static inline void wl_fill_pattern(uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)(i * 7u + 0x5au);
}

#endif /* FATHOM_WORKLOADS_WOLFSSL_WOLF_UTIL_H */
