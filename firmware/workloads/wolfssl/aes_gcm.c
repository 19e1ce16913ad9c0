/* fathom workloads: AES-128-GCM through wolfCrypt's one-shot wc_AesGcmEncrypt/Decrypt.
 *
 * aes128_gcm_encrypt_1k: one-shot encryption of 1024 bytes with 16 bytes of AAD, a 12-byte IV
 *   and a 16-byte tag. The key bytes are prepared in setup (untimed); the timed run does
 *   wc_AesInit + wc_AesGcmSetKey (AES key schedule and the GHASH table) + wc_AesGcmEncrypt +
 *   wc_AesFree, matching the Mbed TLS workload's per-call key schedule and GHASH setup inside
 *   PSA's one-shot psa_aead_encrypt.
 * aes128_gcm_decrypt_1k: the same for decryption and tag check of the ciphertext that setup
 *   produced with the same key, IV and AAD; a tag mismatch makes run fail. */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/aes.h>

#include "../vectors/aes_gcm_mcgrew_viega.h"
#include "fathom_harness.h"
#include "wolf_util.h"

#define GCM_TAG_LEN 16
#define GCM_IV_LEN 12
#define GCM_DATA_LEN 1024
#define GCM_KAT_MAX_LEN 64 /* longest plaintext among the vectors */

static uint8_t gcm_key[16];
static uint8_t gcm_iv[GCM_IV_LEN];
static uint8_t gcm_aad[16];
static uint8_t gcm_plaintext[GCM_DATA_LEN];
static uint8_t gcm_ciphertext[GCM_DATA_LEN];
static uint8_t gcm_tag[GCM_TAG_LEN];
static uint8_t gcm_output[GCM_DATA_LEN];

/* One whole GCM encryption (`encrypt` = 1) or decryption with `key` (16 bytes); `tag` is
 * written when encrypting and checked when decrypting (AES_GCM_AUTH_E on mismatch). */
static int gcm_once(int encrypt, const uint8_t *key, const uint8_t *iv, const uint8_t *aad,
                    size_t aad_len, const uint8_t *in, uint8_t *out, size_t len, uint8_t *tag) {
  Aes aes;
  int ret = wc_AesInit(&aes, NULL, INVALID_DEVID);
  if (ret != 0) return ret;
  ret = wc_AesGcmSetKey(&aes, key, 16);
  if (ret == 0) {
    ret = encrypt ? wc_AesGcmEncrypt(&aes, out, in, (word32)len, iv, GCM_IV_LEN, tag,
                                     GCM_TAG_LEN, aad, (word32)aad_len)
                  : wc_AesGcmDecrypt(&aes, out, in, (word32)len, iv, GCM_IV_LEN, tag,
                                     GCM_TAG_LEN, aad, (word32)aad_len);
  }
  wc_AesFree(&aes);
  return ret;
}

/* Fills the fixed key, IV, AAD and plaintext (the Mbed TLS workload's bytes). */
static void gcm_prepare(void) {
  wl_fill_pattern(gcm_key, sizeof gcm_key);
  wl_fill_pattern(gcm_iv, sizeof gcm_iv);
  wl_fill_pattern(gcm_aad, sizeof gcm_aad);
  wl_fill_pattern(gcm_plaintext, sizeof gcm_plaintext);
  gcm_iv[0] ^= 0x11; /* make IV, AAD and key differ from one another */
  gcm_aad[0] ^= 0x22;
}

static int gcm_encrypt_setup(void) {
  gcm_prepare();
  return 0;
}

/* Also encrypts the fixed plaintext once, so the decrypt run has a valid ciphertext and tag. */
static int gcm_decrypt_setup(void) {
  gcm_prepare();
  return gcm_once(1, gcm_key, gcm_iv, gcm_aad, sizeof gcm_aad, gcm_plaintext, gcm_ciphertext,
                  sizeof gcm_plaintext, gcm_tag);
}

static void gcm_encrypt_kat(void) {
  for (size_t i = 0; i < sizeof aes_gcm_vectors / sizeof aes_gcm_vectors[0]; ++i) {
    const aes_gcm_vector *v = &aes_gcm_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-enc");
    if (v->len > GCM_KAT_MAX_LEN) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
      continue;
    }
    /* Compare ciphertext || tag with the same concatenation of the vector. */
    uint8_t out[GCM_KAT_MAX_LEN + GCM_TAG_LEN];
    uint8_t expected[GCM_KAT_MAX_LEN + GCM_TAG_LEN];
    for (size_t j = 0; j < v->len; ++j) expected[j] = v->ct[j];
    for (size_t j = 0; j < GCM_TAG_LEN; ++j) expected[v->len + j] = v->tag[j];
    const int ret = gcm_once(1, v->key, v->iv, v->aad, v->aad_len, v->pt, out, v->len,
                             out + v->len);
    if (ret != 0) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
    } else {
      fathom_kat_check(name, out, expected, v->len + GCM_TAG_LEN);
    }
  }
}

static void gcm_decrypt_kat(void) {
  for (size_t i = 0; i < sizeof aes_gcm_vectors / sizeof aes_gcm_vectors[0]; ++i) {
    const aes_gcm_vector *v = &aes_gcm_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-dec");
    if (v->len > GCM_KAT_MAX_LEN) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
      continue;
    }
    uint8_t tag[GCM_TAG_LEN];
    uint8_t out[GCM_KAT_MAX_LEN];
    for (size_t j = 0; j < GCM_TAG_LEN; ++j) tag[j] = v->tag[j];
    int ret = gcm_once(0, v->key, v->iv, v->aad, v->aad_len, v->ct, out, v->len, tag);
    if (ret != 0) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
    } else if (v->len == 0) {
      fathom_kat_expect(name, 1); /* tag accepted, nothing to compare */
    } else {
      fathom_kat_check(name, out, v->pt, v->len);
    }
    /* Test case 4 (with AAD) again with the last tag bit flipped: decryption must refuse. */
    if (v->aad_len != 0) {
      wl_vector_name(name, sizeof name, v->name, "-bad-tag");
      tag[GCM_TAG_LEN - 1] ^= 0x01;
      ret = gcm_once(0, v->key, v->iv, v->aad, v->aad_len, v->ct, out, v->len, tag);
      fathom_kat_expect(name, ret == AES_GCM_AUTH_E);
    }
  }
}

static int gcm_encrypt_run(void) {
  uint8_t tag[GCM_TAG_LEN];
  return gcm_once(1, gcm_key, gcm_iv, gcm_aad, sizeof gcm_aad, gcm_plaintext, gcm_output,
                  sizeof gcm_plaintext, tag);
}

static int gcm_decrypt_run(void) {
  return gcm_once(0, gcm_key, gcm_iv, gcm_aad, sizeof gcm_aad, gcm_ciphertext, gcm_output,
                  sizeof gcm_ciphertext, gcm_tag);
}

static const fathom_op op_aes128_gcm_encrypt_1k = {
    .name = "aes128_gcm_encrypt_1k",
    .setup = gcm_encrypt_setup,
    .kat = gcm_encrypt_kat,
    .run = gcm_encrypt_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_aes128_gcm_encrypt_1k);

static const fathom_op op_aes128_gcm_decrypt_1k = {
    .name = "aes128_gcm_decrypt_1k",
    .setup = gcm_decrypt_setup,
    .kat = gcm_decrypt_kat,
    .run = gcm_decrypt_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_aes128_gcm_decrypt_1k);
