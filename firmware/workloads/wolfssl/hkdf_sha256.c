/* fathom workload: HKDF-SHA-256 through wolfCrypt's wc_HKDF.
 *
 * hkdf_sha256: a 32-byte IKM, a 16-byte salt and 16-byte info are prepared in setup (untimed).
 *   Timed: one whole derivation of 32 bytes (HKDF-Extract, then HKDF-Expand of one HMAC
 *   block), the same inputs as the Mbed TLS workload. */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/hmac.h>

#include "../vectors/hkdf_sha256_rfc5869.h"
#include "fathom_harness.h"
#include "wolf_util.h"

static uint8_t hkdf_ikm[32];
static uint8_t hkdf_salt[16];
static uint8_t hkdf_info[16];

static int hkdf_setup(void) {
  wl_fill_pattern(hkdf_ikm, sizeof hkdf_ikm);
  wl_fill_pattern(hkdf_salt, sizeof hkdf_salt);
  wl_fill_pattern(hkdf_info, sizeof hkdf_info);
  hkdf_info[0] ^= 0xff; /* salt and info differ */
  return 0;
}

static void hkdf_kat(void) {
  for (size_t i = 0; i < sizeof hkdf_sha256_vectors / sizeof hkdf_sha256_vectors[0]; ++i) {
    const hkdf_sha256_vector *v = &hkdf_sha256_vectors[i];
    uint8_t okm[64];
    /* A NULL salt is "no salt": wc_HKDF then uses HashLen zero bytes, as RFC 5869 says. */
    const int ret = v->okm_len > sizeof okm
                        ? BAD_FUNC_ARG
                        : wc_HKDF(WC_SHA256, v->ikm, (word32)v->ikm_len, v->salt,
                                  (word32)v->salt_len, v->info, (word32)v->info_len, okm,
                                  (word32)v->okm_len);
    if (ret != 0) {
      wl_kat_api_error(v->name, v->okm, v->okm_len);
    } else {
      fathom_kat_check(v->name, okm, v->okm, v->okm_len);
    }
  }
}

static int hkdf_run(void) {
  uint8_t okm[32];
  return wc_HKDF(WC_SHA256, hkdf_ikm, sizeof hkdf_ikm, hkdf_salt, sizeof hkdf_salt, hkdf_info,
                 sizeof hkdf_info, okm, sizeof okm);
}

static const fathom_op op_hkdf_sha256 = {
    .name = "hkdf_sha256",
    .setup = hkdf_setup,
    .kat = hkdf_kat,
    .run = hkdf_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_hkdf_sha256);
