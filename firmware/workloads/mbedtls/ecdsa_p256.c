/* fathom workloads: ECDSA on P-256 with SHA-256 through the PSA Crypto API.
 *
 * ecdsa_p256_sign: timed = psa_sign_hash with PSA_ALG_DETERMINISTIC_ECDSA(PSA_ALG_SHA_256) of a
 *   32-byte hash (RFC 6979 nonce derivation with HMAC-DRBG, one fixed-base scalar
 *   multiplication, one modular inversion). The key (RFC 6979 A.2.5) is imported and the hash
 *   of "sample" computed in setup. The signature is the same every run; the point blinding
 *   inside the scalar multiplication still draws from the PSA DRBG, which is seeded from the
 *   harness's deterministic generator, so a sequence of runs is reproducible.
 * ecdsa_p256_verify: timed = psa_verify_hash of that signature with the imported public key
 *   (a double scalar multiplication). */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/ecdsa_p256_rfc6979.h"

#define ECDSA_ALG PSA_ALG_DETERMINISTIC_ECDSA(PSA_ALG_SHA_256)
#define P256_SIG_LEN PSA_ECDSA_SIGNATURE_SIZE(256)
#define SHA256_LEN PSA_HASH_LENGTH(PSA_ALG_SHA_256)

static psa_key_id_t ecdsa_private_key;
static psa_key_id_t ecdsa_public_key;
static uint8_t ecdsa_hash[SHA256_LEN];

static psa_status_t ecdsa_import_private(psa_key_id_t *id) {
  return wl_import_key(PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1), 256,
                       PSA_KEY_USAGE_SIGN_HASH, ECDSA_ALG, rfc6979_p256_priv,
                       sizeof rfc6979_p256_priv, id);
}

static psa_status_t ecdsa_import_public(psa_key_id_t *id) {
  return wl_import_key(PSA_KEY_TYPE_ECC_PUBLIC_KEY(PSA_ECC_FAMILY_SECP_R1), 256,
                       PSA_KEY_USAGE_VERIFY_HASH, ECDSA_ALG, rfc6979_p256_pub,
                       sizeof rfc6979_p256_pub, id);
}

static psa_status_t ecdsa_hash_message(const char *msg, uint8_t hash[SHA256_LEN]) {
  size_t msg_len = 0;
  while (msg[msg_len] != '\0') ++msg_len;
  size_t hash_len = 0;
  return psa_hash_compute(PSA_ALG_SHA_256, (const uint8_t *)msg, msg_len, hash, SHA256_LEN,
                          &hash_len);
}

/* Both operations time the RFC 6979 "sample" vector's key and hash; sign needs only the
 * private key, verify only the public key. */
static int ecdsa_sign_setup(void) {
  fathom_report_bytes("signature", P256_SIG_LEN);
  fathom_report_bytes("private_key", sizeof rfc6979_p256_priv);
  psa_status_t status = psa_crypto_init();
  if (status == PSA_SUCCESS) status = ecdsa_hash_message(ecdsa_p256_vectors[0].msg, ecdsa_hash);
  if (status == PSA_SUCCESS && ecdsa_private_key == PSA_KEY_ID_NULL) {
    status = ecdsa_import_private(&ecdsa_private_key);
  }
  return wl_status(status);
}

static int ecdsa_verify_setup(void) {
  /* Verifying needs the signer's public key stored and the signature received. */
  fathom_report_bytes("signature", P256_SIG_LEN);
  fathom_report_bytes("public_key", sizeof rfc6979_p256_pub);
  psa_status_t status = psa_crypto_init();
  if (status == PSA_SUCCESS) status = ecdsa_hash_message(ecdsa_p256_vectors[0].msg, ecdsa_hash);
  if (status == PSA_SUCCESS && ecdsa_public_key == PSA_KEY_ID_NULL) {
    status = ecdsa_import_public(&ecdsa_public_key);
  }
  return wl_status(status);
}

static void ecdsa_sign_teardown(void) {
  psa_destroy_key(ecdsa_private_key);
  ecdsa_private_key = PSA_KEY_ID_NULL;
}

static void ecdsa_verify_teardown(void) {
  psa_destroy_key(ecdsa_public_key);
  ecdsa_public_key = PSA_KEY_ID_NULL;
}

static void ecdsa_sign_kat(void) {
  psa_key_id_t key = PSA_KEY_ID_NULL;
  psa_status_t key_status = ecdsa_import_private(&key);

  /* The public key (Ux, Uy) derived from the private key x. */
  uint8_t pub[sizeof rfc6979_p256_pub];
  size_t pub_len = 0;
  psa_status_t status = key_status;
  if (status == PSA_SUCCESS) status = psa_export_public_key(key, pub, sizeof pub, &pub_len);
  if (status != PSA_SUCCESS || pub_len != sizeof pub) {
    wl_kat_api_error("rfc6979-p256-pub", rfc6979_p256_pub, sizeof rfc6979_p256_pub);
  } else {
    fathom_kat_check("rfc6979-p256-pub", pub, rfc6979_p256_pub, sizeof pub);
  }

  /* The exact deterministic signatures (r || s). */
  for (size_t i = 0; i < sizeof ecdsa_p256_vectors / sizeof ecdsa_p256_vectors[0]; ++i) {
    const ecdsa_p256_vector *v = &ecdsa_p256_vectors[i];
    uint8_t hash[SHA256_LEN];
    uint8_t sig[P256_SIG_LEN];
    size_t sig_len = 0;
    status = key_status;
    if (status == PSA_SUCCESS) status = ecdsa_hash_message(v->msg, hash);
    if (status == PSA_SUCCESS) {
      status = psa_sign_hash(key, ECDSA_ALG, hash, sizeof hash, sig, sizeof sig, &sig_len);
    }
    if (status != PSA_SUCCESS || sig_len != sizeof sig) {
      wl_kat_api_error(v->name, v->sig, P256_SIG_LEN);
    } else {
      fathom_kat_check(v->name, sig, v->sig, sizeof sig);
    }
  }
  psa_destroy_key(key);
}

static void ecdsa_verify_kat(void) {
  psa_key_id_t key = PSA_KEY_ID_NULL;
  psa_status_t key_status = ecdsa_import_public(&key);
  for (size_t i = 0; i < sizeof ecdsa_p256_vectors / sizeof ecdsa_p256_vectors[0]; ++i) {
    const ecdsa_p256_vector *v = &ecdsa_p256_vectors[i];
    char name[40];
    uint8_t hash[SHA256_LEN];
    psa_status_t status = key_status;
    if (status == PSA_SUCCESS) status = ecdsa_hash_message(v->msg, hash);

    /* The RFC 6979 signature verifies. */
    psa_status_t verify = status == PSA_SUCCESS ? psa_verify_hash(key, ECDSA_ALG, hash, sizeof hash,
                                                                  v->sig, P256_SIG_LEN)
                                                : status;
    fathom_kat_expect(wl_vector_name(name, sizeof name, v->name, "-verify"), verify == PSA_SUCCESS);

    /* The same signature with one bit of s flipped is rejected. */
    uint8_t bad_sig[P256_SIG_LEN];
    for (size_t j = 0; j < sizeof bad_sig; ++j) bad_sig[j] = v->sig[j];
    bad_sig[P256_SIG_LEN - 1] ^= 0x01;
    verify = status == PSA_SUCCESS
                 ? psa_verify_hash(key, ECDSA_ALG, hash, sizeof hash, bad_sig, sizeof bad_sig)
                 : status;
    fathom_kat_expect(wl_vector_name(name, sizeof name, v->name, "-reject"),
                      verify == PSA_ERROR_INVALID_SIGNATURE);
  }
  psa_destroy_key(key);
}

static int ecdsa_sign_run(void) {
  uint8_t sig[P256_SIG_LEN];
  size_t sig_len = 0;
  return wl_status(psa_sign_hash(ecdsa_private_key, ECDSA_ALG, ecdsa_hash, sizeof ecdsa_hash, sig,
                                 sizeof sig, &sig_len));
}

static int ecdsa_verify_run(void) {
  return wl_status(psa_verify_hash(ecdsa_public_key, ECDSA_ALG, ecdsa_hash, sizeof ecdsa_hash,
                                   ecdsa_p256_vectors[0].sig, P256_SIG_LEN));
}

static const fathom_op op_ecdsa_p256_sign = {
    .name = "ecdsa_p256_sign",
    .setup = ecdsa_sign_setup,
    .kat = ecdsa_sign_kat,
    .run = ecdsa_sign_run,
    .teardown = ecdsa_sign_teardown,
};
FATHOM_REGISTER_OP(op_ecdsa_p256_sign);

static const fathom_op op_ecdsa_p256_verify = {
    .name = "ecdsa_p256_verify",
    .setup = ecdsa_verify_setup,
    .kat = ecdsa_verify_kat,
    .run = ecdsa_verify_run,
    .teardown = ecdsa_verify_teardown,
};
FATHOM_REGISTER_OP(op_ecdsa_p256_verify);
