/* fathom workloads: AES-128-GCM through the PSA AEAD API (psa_aead_encrypt/psa_aead_decrypt).
 *
 * aes128_gcm_encrypt_1k: one-shot encryption of 1024 bytes with 16 bytes of AAD, a 12-byte IV
 *   and a 16-byte tag. The key is imported in setup (untimed), so the timed run includes the
 *   per-call AES key schedule and GHASH table setup that PSA's one-shot API does, as an
 *   application calling it would see.
 *   Its secret (`fathom ct`) is the key, and the plaintext: variant 0 is setup's key, variant v
 *   that key with every byte changed by v; the plaintext stays as setup made it.
 * aes128_gcm_decrypt_1k: one-shot decryption and tag check of the ciphertext that setup
 *   produced with the same key, IV and AAD; a tag mismatch makes run fail. */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/aes_gcm_mcgrew_viega.h"

#define GCM_TAG_LEN 16
#define GCM_IV_LEN 12
#define GCM_DATA_LEN 1024
#define GCM_KAT_MAX_LEN 64 /* longest plaintext among the vectors */

/* Each operation owns its key: the harness runs every setup before any timing and tears an
 * operation down right after its own runs, so a shared key would be destroyed under the
 * other operation. */
static psa_key_id_t gcm_encrypt_key;
static psa_key_id_t gcm_decrypt_key;
static uint8_t gcm_iv[GCM_IV_LEN];
static uint8_t gcm_aad[16];
static uint8_t gcm_plaintext[GCM_DATA_LEN];
static uint8_t gcm_ciphertext[GCM_DATA_LEN + GCM_TAG_LEN]; /* ciphertext || tag */
static uint8_t gcm_output[GCM_DATA_LEN + GCM_TAG_LEN];

static psa_status_t gcm_import(const uint8_t *key, psa_key_id_t *id) {
  return wl_import_key(PSA_KEY_TYPE_AES, 128, PSA_KEY_USAGE_ENCRYPT | PSA_KEY_USAGE_DECRYPT,
                       PSA_ALG_GCM, key, 16, id);
}

/* Initializes PSA, fills the fixed key, IV, AAD and plaintext, and imports the key into `*id`
 * unless it is already there. */
static psa_status_t gcm_prepare(psa_key_id_t *id) {
  psa_status_t status = psa_crypto_init();
  if (status != PSA_SUCCESS) return status;
  uint8_t key[16];
  wl_fill_pattern(key, sizeof key);
  wl_fill_pattern(gcm_iv, sizeof gcm_iv);
  wl_fill_pattern(gcm_aad, sizeof gcm_aad);
  wl_fill_pattern(gcm_plaintext, sizeof gcm_plaintext);
  gcm_iv[0] ^= 0x11; /* make IV, AAD and key differ from one another */
  gcm_aad[0] ^= 0x22;
  return *id == PSA_KEY_ID_NULL ? gcm_import(key, id) : PSA_SUCCESS;
}

static int gcm_encrypt_setup(void) { return wl_status(gcm_prepare(&gcm_encrypt_key)); }

/* Also encrypts the fixed plaintext once, so the decrypt run has a valid ciphertext and tag. */
static int gcm_decrypt_setup(void) {
  psa_status_t status = gcm_prepare(&gcm_decrypt_key);
  size_t out_len = 0;
  if (status == PSA_SUCCESS) {
    status = psa_aead_encrypt(gcm_decrypt_key, PSA_ALG_GCM, gcm_iv, sizeof gcm_iv, gcm_aad,
                              sizeof gcm_aad, gcm_plaintext, sizeof gcm_plaintext, gcm_ciphertext,
                              sizeof gcm_ciphertext, &out_len);
  }
  if (status == PSA_SUCCESS && out_len != sizeof gcm_ciphertext) status = PSA_ERROR_GENERIC_ERROR;
  return wl_status(status);
}

static void gcm_encrypt_teardown(void) {
  psa_destroy_key(gcm_encrypt_key);
  gcm_encrypt_key = PSA_KEY_ID_NULL;
}

static void gcm_decrypt_teardown(void) {
  psa_destroy_key(gcm_decrypt_key);
  gcm_decrypt_key = PSA_KEY_ID_NULL;
}

static void gcm_encrypt_kat(void) {
  for (size_t i = 0; i < sizeof aes_gcm_vectors / sizeof aes_gcm_vectors[0]; ++i) {
    const aes_gcm_vector *v = &aes_gcm_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-enc");
    uint8_t out[GCM_KAT_MAX_LEN + GCM_TAG_LEN];
    size_t out_len = 0;
    if (v->len > GCM_KAT_MAX_LEN) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
      continue;
    }
    psa_key_id_t key = PSA_KEY_ID_NULL;
    psa_status_t status = gcm_import(v->key, &key);
    if (status == PSA_SUCCESS) {
      status = psa_aead_encrypt(key, PSA_ALG_GCM, v->iv, GCM_IV_LEN, v->aad, v->aad_len, v->pt,
                                v->len, out, sizeof out, &out_len);
    }
    /* PSA returns ciphertext || tag: compare against the same concatenation of the vector. */
    uint8_t expected[GCM_KAT_MAX_LEN + GCM_TAG_LEN];
    for (size_t j = 0; j < v->len; ++j) expected[j] = v->ct[j];
    for (size_t j = 0; j < GCM_TAG_LEN; ++j) expected[v->len + j] = v->tag[j];
    if (status != PSA_SUCCESS || out_len != v->len + GCM_TAG_LEN) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
    } else {
      fathom_kat_check(name, out, expected, out_len);
    }
    psa_destroy_key(key);
  }
}

static void gcm_decrypt_kat(void) {
  for (size_t i = 0; i < sizeof aes_gcm_vectors / sizeof aes_gcm_vectors[0]; ++i) {
    const aes_gcm_vector *v = &aes_gcm_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-dec");
    uint8_t in[GCM_KAT_MAX_LEN + GCM_TAG_LEN];
    uint8_t out[GCM_KAT_MAX_LEN];
    size_t out_len = 0;
    if (v->len > GCM_KAT_MAX_LEN) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
      continue;
    }
    for (size_t j = 0; j < v->len; ++j) in[j] = v->ct[j];
    for (size_t j = 0; j < GCM_TAG_LEN; ++j) in[v->len + j] = v->tag[j];
    psa_key_id_t key = PSA_KEY_ID_NULL;
    psa_status_t key_status = gcm_import(v->key, &key);
    psa_status_t status = key_status;
    if (status == PSA_SUCCESS) {
      status = psa_aead_decrypt(key, PSA_ALG_GCM, v->iv, GCM_IV_LEN, v->aad, v->aad_len, in,
                                v->len + GCM_TAG_LEN, out, sizeof out, &out_len);
    }
    if (status != PSA_SUCCESS || out_len != v->len) {
      wl_kat_api_error(name, v->tag, GCM_TAG_LEN);
    } else if (v->len == 0) {
      fathom_kat_expect(name, 1); /* tag accepted, nothing to compare */
    } else {
      fathom_kat_check(name, out, v->pt, v->len);
    }
    /* Test case 4 (with AAD) again with the last tag bit flipped: decryption must refuse. */
    if (v->aad_len != 0) {
      wl_vector_name(name, sizeof name, v->name, "-bad-tag");
      in[v->len + GCM_TAG_LEN - 1] ^= 0x01;
      status = key_status;
      if (status == PSA_SUCCESS) {
        status = psa_aead_decrypt(key, PSA_ALG_GCM, v->iv, GCM_IV_LEN, v->aad, v->aad_len, in,
                                  v->len + GCM_TAG_LEN, out, sizeof out, &out_len);
      }
      fathom_kat_expect(name, status == PSA_ERROR_INVALID_SIGNATURE);
    }
    psa_destroy_key(key);
  }
}

/* Variant v of the key (fathom_op.secret), re-imported; key and plaintext declared secret for
 * the taint check (fathom_ct_secret). */
static int gcm_encrypt_secret(uint32_t variant) {
  uint8_t key[16];
  wl_fill_pattern(key, sizeof key);
  for (size_t i = 0; i < sizeof key; ++i)
    key[i] ^= (uint8_t)(variant * (2u * i + 1u) + (variant >> 8));
  fathom_ct_secret(key, sizeof key);
  fathom_ct_secret(gcm_plaintext, sizeof gcm_plaintext);
  psa_destroy_key(gcm_encrypt_key);
  gcm_encrypt_key = PSA_KEY_ID_NULL;
  return wl_status(gcm_import(key, &gcm_encrypt_key));
}

static int gcm_encrypt_run(void) {
  size_t out_len = 0;
  return wl_status(psa_aead_encrypt(gcm_encrypt_key, PSA_ALG_GCM, gcm_iv, sizeof gcm_iv, gcm_aad,
                                    sizeof gcm_aad, gcm_plaintext, sizeof gcm_plaintext, gcm_output,
                                    sizeof gcm_output, &out_len));
}

static int gcm_decrypt_run(void) {
  size_t out_len = 0;
  return wl_status(psa_aead_decrypt(gcm_decrypt_key, PSA_ALG_GCM, gcm_iv, sizeof gcm_iv, gcm_aad,
                                    sizeof gcm_aad, gcm_ciphertext, sizeof gcm_ciphertext,
                                    gcm_output, sizeof gcm_output, &out_len));
}

static const fathom_op op_aes128_gcm_encrypt_1k = {
    .name = "aes128_gcm_encrypt_1k",
    .setup = gcm_encrypt_setup,
    .kat = gcm_encrypt_kat,
    .run = gcm_encrypt_run,
    .teardown = gcm_encrypt_teardown,
    .secret = gcm_encrypt_secret,
};
FATHOM_REGISTER_OP(op_aes128_gcm_encrypt_1k);

static const fathom_op op_aes128_gcm_decrypt_1k = {
    .name = "aes128_gcm_decrypt_1k",
    .setup = gcm_decrypt_setup,
    .kat = gcm_decrypt_kat,
    .run = gcm_decrypt_run,
    .teardown = gcm_decrypt_teardown,
};
FATHOM_REGISTER_OP(op_aes128_gcm_decrypt_1k);
