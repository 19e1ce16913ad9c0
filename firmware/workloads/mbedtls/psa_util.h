/* fathom: small helpers shared by the Mbed TLS workloads (PSA Crypto API). */
#ifndef FATHOM_WORKLOADS_MBEDTLS_PSA_UTIL_H
#define FATHOM_WORKLOADS_MBEDTLS_PSA_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"

/* Maps a PSA status to a harness hook result: 0 for PSA_SUCCESS, otherwise the (negative,
 * non-zero) PSA error code, so a failing hook still says which error it was. */
static inline int wl_status(psa_status_t status) { return (int)status; }

/* Imports `len` bytes of `data` as a volatile key of `type` (`bits` may be 0 to infer it)
 * usable for `usage` with algorithm `alg`; stores its id in `*id`. */
static inline psa_status_t wl_import_key(psa_key_type_t type, size_t bits, psa_key_usage_t usage,
                                         psa_algorithm_t alg, const uint8_t *data, size_t len,
                                         psa_key_id_t *id) {
  psa_key_attributes_t attributes = PSA_KEY_ATTRIBUTES_INIT;
  psa_set_key_type(&attributes, type);
  psa_set_key_bits(&attributes, bits);
  psa_set_key_usage_flags(&attributes, usage);
  psa_set_key_algorithm(&attributes, alg);
  psa_status_t status = psa_import_key(&attributes, data, len, id);
  psa_reset_key_attributes(&attributes);
  return status;
}

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

/* Fills `out` with a fixed, non-trivial byte pattern (the timed operations' input data). */
static inline void wl_fill_pattern(uint8_t *out, size_t len) {
  for (size_t i = 0; i < len; ++i) out[i] = (uint8_t)(i * 7u + 0x5au);
}

#endif /* FATHOM_WORKLOADS_MBEDTLS_PSA_UTIL_H */
