/* fathom workload: HMAC-SHA-256 through wolfCrypt's Hmac API.
 *
 * hmac_sha256: a 32-byte key is prepared once in setup (untimed). What is timed is one whole
 *   MAC over a 64-byte message: wc_HmacInit, wc_HmacSetKey (the key schedule: hashing the ipad
 *   and opad blocks), wc_HmacUpdate, wc_HmacFinal and wc_HmacFree, i.e. the same five SHA-256
 *   compressions as the Mbed TLS workload's psa_mac_compute. */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/hmac.h>

#include "../vectors/hmac_sha256_rfc4231.h"
#include "fathom_harness.h"
#include "wolf_util.h"

static uint8_t hmac_key[32];
static uint8_t hmac_message[64];

/* HMAC-SHA-256 of `data` under `key` into `mac` (32 bytes); 0 or a wolfCrypt error code. */
static int hmac_compute(const uint8_t *key, size_t key_len, const uint8_t *data, size_t data_len,
                        uint8_t mac[WC_SHA256_DIGEST_SIZE]) {
  Hmac hmac;
  int ret = wc_HmacInit(&hmac, NULL, INVALID_DEVID);
  if (ret != 0) return ret;
  ret = wc_HmacSetKey(&hmac, WC_SHA256, key, (word32)key_len);
  if (ret == 0) ret = wc_HmacUpdate(&hmac, data, (word32)data_len);
  if (ret == 0) ret = wc_HmacFinal(&hmac, mac);
  wc_HmacFree(&hmac);
  return ret;
}

static int hmac_setup(void) {
  wl_fill_pattern(hmac_key, sizeof hmac_key);
  wl_fill_pattern(hmac_message, sizeof hmac_message);
  return 0;
}

static void hmac_kat(void) {
  for (size_t i = 0; i < sizeof hmac_sha256_vectors / sizeof hmac_sha256_vectors[0]; ++i) {
    const hmac_sha256_vector *v = &hmac_sha256_vectors[i];
    uint8_t mac[WC_SHA256_DIGEST_SIZE];
    if (hmac_compute(v->key, v->key_len, v->data, v->data_len, mac) != 0) {
      wl_kat_api_error(v->name, v->mac, sizeof mac);
    } else {
      fathom_kat_check(v->name, mac, v->mac, sizeof mac);
    }
  }

  /* RFC 4231 test case 2 with one bit of the MAC flipped must not verify. wolfCrypt has no
   * verify call: recompute and compare in constant time, as a caller would. */
  const hmac_sha256_vector *v = &hmac_sha256_vectors[1];
  uint8_t bad_mac[WC_SHA256_DIGEST_SIZE];
  for (size_t j = 0; j < sizeof bad_mac; ++j) bad_mac[j] = v->mac[j];
  bad_mac[sizeof bad_mac - 1] ^= 0x01;
  uint8_t mac[WC_SHA256_DIGEST_SIZE];
  const int ok = hmac_compute(v->key, v->key_len, v->data, v->data_len, mac) == 0;
  uint8_t diff = 0;
  for (size_t j = 0; j < sizeof mac; ++j) diff |= (uint8_t)(mac[j] ^ bad_mac[j]);
  fathom_kat_expect("rfc4231-tc2-reject", ok && diff != 0);
}

static int hmac_run(void) {
  uint8_t mac[WC_SHA256_DIGEST_SIZE];
  return hmac_compute(hmac_key, sizeof hmac_key, hmac_message, sizeof hmac_message, mac);
}

static const fathom_op op_hmac_sha256 = {
    .name = "hmac_sha256",
    .setup = hmac_setup,
    .kat = hmac_kat,
    .run = hmac_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_hmac_sha256);
