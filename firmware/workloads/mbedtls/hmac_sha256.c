/* fathom workload: HMAC-SHA-256 through the PSA Crypto API (psa_mac_compute).
 *
 * hmac_sha256: a 32-byte key is imported once in setup (untimed). What is timed is one
 *   psa_mac_compute call over a 64-byte message: the key-slot lookup, the HMAC key schedule
 *   (hashing the ipad and opad blocks), the message and the outer hash, i.e. five SHA-256
 *   compressions (ipad, message, padding; opad, inner digest + padding) plus the PSA
 *   dispatch. */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/hmac_sha256_rfc4231.h"

#define HMAC_ALG PSA_ALG_HMAC(PSA_ALG_SHA_256)
#define HMAC_LEN PSA_HASH_LENGTH(PSA_ALG_SHA_256)

static psa_key_id_t hmac_key;
static uint8_t hmac_message[64];

static int hmac_setup(void) {
  psa_status_t status = psa_crypto_init();
  if (status != PSA_SUCCESS) return wl_status(status);
  uint8_t key[32];
  wl_fill_pattern(key, sizeof key);
  wl_fill_pattern(hmac_message, sizeof hmac_message);
  return wl_status(wl_import_key(PSA_KEY_TYPE_HMAC, 0, PSA_KEY_USAGE_SIGN_MESSAGE, HMAC_ALG, key,
                                 sizeof key, &hmac_key));
}

static void hmac_kat(void) {
  for (size_t i = 0; i < sizeof hmac_sha256_vectors / sizeof hmac_sha256_vectors[0]; ++i) {
    const hmac_sha256_vector *v = &hmac_sha256_vectors[i];
    psa_key_id_t key = PSA_KEY_ID_NULL;
    uint8_t mac[HMAC_LEN];
    size_t mac_len = 0;
    psa_status_t status = wl_import_key(PSA_KEY_TYPE_HMAC, 0, PSA_KEY_USAGE_SIGN_MESSAGE, HMAC_ALG,
                                        v->key, v->key_len, &key);
    if (status == PSA_SUCCESS) {
      status = psa_mac_compute(key, HMAC_ALG, v->data, v->data_len, mac, sizeof mac, &mac_len);
    }
    if (status != PSA_SUCCESS || mac_len != sizeof mac) {
      wl_kat_api_error(v->name, v->mac, HMAC_LEN);
    } else {
      fathom_kat_check(v->name, mac, v->mac, sizeof mac);
    }
    psa_destroy_key(key);
  }

  /* RFC 4231 test case 2 with one bit of the MAC flipped: verification must reject it. */
  const hmac_sha256_vector *v = &hmac_sha256_vectors[1];
  uint8_t bad_mac[HMAC_LEN];
  for (size_t j = 0; j < sizeof bad_mac; ++j) bad_mac[j] = v->mac[j];
  bad_mac[HMAC_LEN - 1] ^= 0x01;
  psa_key_id_t key = PSA_KEY_ID_NULL;
  psa_status_t status = wl_import_key(PSA_KEY_TYPE_HMAC, 0, PSA_KEY_USAGE_VERIFY_MESSAGE, HMAC_ALG,
                                      v->key, v->key_len, &key);
  fathom_kat_expect(
      "rfc4231-tc2-reject",
      status == PSA_SUCCESS && psa_mac_verify(key, HMAC_ALG, v->data, v->data_len, bad_mac,
                                              sizeof bad_mac) == PSA_ERROR_INVALID_SIGNATURE);
  psa_destroy_key(key);
}

static int hmac_run(void) {
  uint8_t mac[HMAC_LEN];
  size_t mac_len = 0;
  return wl_status(psa_mac_compute(hmac_key, HMAC_ALG, hmac_message, sizeof hmac_message, mac,
                                   sizeof mac, &mac_len));
}

static void hmac_teardown(void) {
  psa_destroy_key(hmac_key);
  hmac_key = PSA_KEY_ID_NULL;
}

static const fathom_op op_hmac_sha256 = {
    .name = "hmac_sha256",
    .setup = hmac_setup,
    .kat = hmac_kat,
    .run = hmac_run,
    .teardown = hmac_teardown,
};
FATHOM_REGISTER_OP(op_hmac_sha256);
