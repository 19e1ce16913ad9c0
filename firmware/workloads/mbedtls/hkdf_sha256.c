/* fathom workload: HKDF-SHA-256 through the PSA key derivation API.
 *
 * hkdf_sha256: a 32-byte IKM is imported once in setup as a PSA_KEY_TYPE_DERIVE key (untimed).
 *   Timed: one whole derivation with PSA_ALG_HKDF(PSA_ALG_SHA_256): setup, 16-byte salt,
 *   the IKM key as secret (HKDF-Extract), 16-byte info, 32 bytes of output (HKDF-Expand, one
 *   HMAC block) and abort. */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/hkdf_sha256_rfc5869.h"

#define HKDF_ALG PSA_ALG_HKDF(PSA_ALG_SHA_256)

static psa_key_id_t hkdf_ikm_key;
static uint8_t hkdf_salt[16];
static uint8_t hkdf_info[16];

/* Derives `okm_len` bytes into `okm` from the DERIVE key `secret`; `salt` may be NULL (no salt
 * input, which RFC 5869 defines as HashLen zero bytes). */
static psa_status_t hkdf_derive(psa_key_id_t secret, const uint8_t *salt, size_t salt_len,
                                const uint8_t *info, size_t info_len, uint8_t *okm,
                                size_t okm_len) {
  psa_key_derivation_operation_t op = PSA_KEY_DERIVATION_OPERATION_INIT;
  psa_status_t status = psa_key_derivation_setup(&op, HKDF_ALG);
  if (status == PSA_SUCCESS && salt != NULL) {
    status = psa_key_derivation_input_bytes(&op, PSA_KEY_DERIVATION_INPUT_SALT, salt, salt_len);
  }
  if (status == PSA_SUCCESS) {
    status = psa_key_derivation_input_key(&op, PSA_KEY_DERIVATION_INPUT_SECRET, secret);
  }
  if (status == PSA_SUCCESS) {
    status = psa_key_derivation_input_bytes(&op, PSA_KEY_DERIVATION_INPUT_INFO, info, info_len);
  }
  if (status == PSA_SUCCESS) {
    status = psa_key_derivation_output_bytes(&op, okm, okm_len);
  }
  psa_status_t abort_status = psa_key_derivation_abort(&op);
  return status != PSA_SUCCESS ? status : abort_status;
}

static psa_status_t hkdf_import_ikm(const uint8_t *ikm, size_t len, psa_key_id_t *id) {
  return wl_import_key(PSA_KEY_TYPE_DERIVE, 0, PSA_KEY_USAGE_DERIVE, HKDF_ALG, ikm, len, id);
}

/* The timed derivation's output: one 256-bit key. */
#define HKDF_RUN_OKM_LEN 32

static int hkdf_setup(void) {
  fathom_report_bytes("derived_key", HKDF_RUN_OKM_LEN);
  psa_status_t status = psa_crypto_init();
  if (status != PSA_SUCCESS) return wl_status(status);
  uint8_t ikm[32];
  wl_fill_pattern(ikm, sizeof ikm);
  wl_fill_pattern(hkdf_salt, sizeof hkdf_salt);
  wl_fill_pattern(hkdf_info, sizeof hkdf_info);
  hkdf_info[0] ^= 0xff; /* salt and info differ */
  return wl_status(hkdf_import_ikm(ikm, sizeof ikm, &hkdf_ikm_key));
}

static void hkdf_kat(void) {
  for (size_t i = 0; i < sizeof hkdf_sha256_vectors / sizeof hkdf_sha256_vectors[0]; ++i) {
    const hkdf_sha256_vector *v = &hkdf_sha256_vectors[i];
    uint8_t okm[64];
    psa_key_id_t key = PSA_KEY_ID_NULL;
    psa_status_t status = v->okm_len <= sizeof okm ? PSA_SUCCESS : PSA_ERROR_BUFFER_TOO_SMALL;
    if (status == PSA_SUCCESS) status = hkdf_import_ikm(v->ikm, v->ikm_len, &key);
    if (status == PSA_SUCCESS) {
      status = hkdf_derive(key, v->salt, v->salt_len, v->info, v->info_len, okm, v->okm_len);
    }
    if (status != PSA_SUCCESS) {
      wl_kat_api_error(v->name, v->okm, v->okm_len);
    } else {
      fathom_kat_check(v->name, okm, v->okm, v->okm_len);
    }
    psa_destroy_key(key);
  }
}

static int hkdf_run(void) {
  uint8_t okm[HKDF_RUN_OKM_LEN];
  return wl_status(hkdf_derive(hkdf_ikm_key, hkdf_salt, sizeof hkdf_salt, hkdf_info,
                               sizeof hkdf_info, okm, sizeof okm));
}

static void hkdf_teardown(void) {
  psa_destroy_key(hkdf_ikm_key);
  hkdf_ikm_key = PSA_KEY_ID_NULL;
}

static const fathom_op op_hkdf_sha256 = {
    .name = "hkdf_sha256",
    .setup = hkdf_setup,
    .kat = hkdf_kat,
    .run = hkdf_run,
    .teardown = hkdf_teardown,
};
FATHOM_REGISTER_OP(op_hkdf_sha256);
