/* fathom workloads: ECDSA on P-256 with SHA-256 through wolfCrypt's ecc API.
 *
 * ecdsa_p256_sign: timed = wc_ecc_sign_hash_ex of a 32-byte hash with deterministic nonces
 *   (wc_ecc_set_deterministic: RFC 6979 with HMAC-SHA-256, one fixed-base scalar
 *   multiplication, one modular inversion) and the conversion of (r, s) to the raw 64-byte
 *   r || s that the Mbed TLS workload's psa_sign_hash returns. The key (RFC 6979 A.2.5) is
 *   imported and the hash of "sample" computed in setup. The signature is the same every run.
 * ecdsa_p256_verify: timed = reading r and s from that raw signature and
 *   wc_ecc_verify_hash_ex with the imported public key (a double scalar multiplication). */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/ecc.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/sha256.h>
#include <wolfssl/wolfcrypt/wolfmath.h>

#include "../vectors/ecdsa_p256_rfc6979.h"
#include "fathom_harness.h"
#include "wolf_util.h"

#define P256_SIG_LEN 64
#define SHA256_LEN WC_SHA256_DIGEST_SIZE

static ecc_key ecdsa_private_key;
static ecc_key ecdsa_public_key;
static int ecdsa_private_ready;
static int ecdsa_public_ready;
static uint8_t ecdsa_hash[SHA256_LEN];

static int ecdsa_import_private(ecc_key *key) {
  int ret = wc_ecc_init(key);
  if (ret == 0) {
    ret = wc_ecc_import_private_key_ex(rfc6979_p256_priv, sizeof rfc6979_p256_priv, NULL, 0, key,
                                       ECC_SECP256R1);
  }
  if (ret == 0) ret = wc_ecc_set_deterministic(key, 1);
  if (ret == 0) ret = wc_ecc_set_rng(key, &wl_rng);
  return ret;
}

static int ecdsa_import_public(ecc_key *key) {
  int ret = wc_ecc_init(key);
  if (ret == 0) {
    ret = wc_ecc_import_x963_ex(rfc6979_p256_pub, sizeof rfc6979_p256_pub, key, ECC_SECP256R1);
  }
  return ret;
}

static int ecdsa_hash_message(const char *msg, uint8_t hash[SHA256_LEN]) {
  size_t msg_len = 0;
  while (msg[msg_len] != '\0') ++msg_len;
  return wc_Sha256Hash((const byte *)msg, (word32)msg_len, hash);
}

/* Signs `hash` with `key` into the raw r || s (64 bytes). */
static int ecdsa_sign(ecc_key *key, const uint8_t hash[SHA256_LEN], uint8_t sig[P256_SIG_LEN]) {
  mp_int r;
  mp_int s;
  int ret = mp_init_multi(&r, &s, NULL, NULL, NULL, NULL);
  if (ret != MP_OKAY) return ret;
  ret = wc_ecc_sign_hash_ex(hash, SHA256_LEN, &wl_rng, key, &r, &s);
  if (ret == 0) ret = mp_to_unsigned_bin_len(&r, sig, 32);
  if (ret == 0) ret = mp_to_unsigned_bin_len(&s, sig + 32, 32);
  mp_clear(&r);
  mp_clear(&s);
  return ret;
}

/* Verifies the raw r || s `sig` of `hash`: 0 and `*valid` = 1 for a good signature, 0 and
 * `*valid` = 0 for a bad one, or an error code. */
static int ecdsa_verify(ecc_key *key, const uint8_t hash[SHA256_LEN],
                        const uint8_t sig[P256_SIG_LEN], int *valid) {
  mp_int r;
  mp_int s;
  *valid = 0;
  int ret = mp_init_multi(&r, &s, NULL, NULL, NULL, NULL);
  if (ret != MP_OKAY) return ret;
  ret = mp_read_unsigned_bin(&r, sig, 32);
  if (ret == 0) ret = mp_read_unsigned_bin(&s, sig + 32, 32);
  if (ret == 0) ret = wc_ecc_verify_hash_ex(&r, &s, hash, SHA256_LEN, valid, key);
  mp_clear(&r);
  mp_clear(&s);
  return ret;
}

/* Both operations time the RFC 6979 "sample" vector's key and hash; sign needs only the
 * private key, verify only the public key. */
static int ecdsa_sign_setup(void) {
  int ret = wl_rng_ready();
  if (ret == 0) ret = ecdsa_hash_message(ecdsa_p256_vectors[0].msg, ecdsa_hash);
  if (ret == 0 && !ecdsa_private_ready) {
    ret = ecdsa_import_private(&ecdsa_private_key);
    ecdsa_private_ready = ret == 0;
  }
  return ret;
}

static int ecdsa_verify_setup(void) {
  int ret = ecdsa_hash_message(ecdsa_p256_vectors[0].msg, ecdsa_hash);
  if (ret == 0 && !ecdsa_public_ready) {
    ret = ecdsa_import_public(&ecdsa_public_key);
    ecdsa_public_ready = ret == 0;
  }
  return ret;
}

static void ecdsa_sign_teardown(void) {
  if (ecdsa_private_ready) wc_ecc_free(&ecdsa_private_key);
  ecdsa_private_ready = 0;
}

static void ecdsa_verify_teardown(void) {
  if (ecdsa_public_ready) wc_ecc_free(&ecdsa_public_key);
  ecdsa_public_ready = 0;
}

static void ecdsa_sign_kat(void) {
  ecc_key key;
  const int key_ret = ecdsa_import_private(&key);

  /* The public key (Ux, Uy) derived from the private key x. */
  uint8_t pub[sizeof rfc6979_p256_pub];
  word32 pub_len = sizeof pub;
  int ret = key_ret;
  if (ret == 0) ret = wc_ecc_make_pub(&key, NULL);
  if (ret == 0) ret = wc_ecc_export_x963(&key, pub, &pub_len);
  if (ret != 0 || pub_len != sizeof pub) {
    wl_kat_api_error("rfc6979-p256-pub", rfc6979_p256_pub, sizeof rfc6979_p256_pub);
  } else {
    fathom_kat_check("rfc6979-p256-pub", pub, rfc6979_p256_pub, sizeof pub);
  }

  /* The exact deterministic signatures (r || s). */
  for (size_t i = 0; i < sizeof ecdsa_p256_vectors / sizeof ecdsa_p256_vectors[0]; ++i) {
    const ecdsa_p256_vector *v = &ecdsa_p256_vectors[i];
    uint8_t hash[SHA256_LEN];
    uint8_t sig[P256_SIG_LEN];
    ret = key_ret;
    if (ret == 0) ret = ecdsa_hash_message(v->msg, hash);
    if (ret == 0) ret = ecdsa_sign(&key, hash, sig);
    if (ret != 0) {
      wl_kat_api_error(v->name, v->sig, P256_SIG_LEN);
    } else {
      fathom_kat_check(v->name, sig, v->sig, sizeof sig);
    }
  }
  wc_ecc_free(&key);
}

static void ecdsa_verify_kat(void) {
  ecc_key key;
  const int key_ret = ecdsa_import_public(&key);
  for (size_t i = 0; i < sizeof ecdsa_p256_vectors / sizeof ecdsa_p256_vectors[0]; ++i) {
    const ecdsa_p256_vector *v = &ecdsa_p256_vectors[i];
    char name[40];
    uint8_t hash[SHA256_LEN];
    int ret = key_ret;
    if (ret == 0) ret = ecdsa_hash_message(v->msg, hash);

    /* The RFC 6979 signature verifies. */
    int valid = 0;
    int verify = ret == 0 ? ecdsa_verify(&key, hash, v->sig, &valid) : ret;
    fathom_kat_expect(wl_vector_name(name, sizeof name, v->name, "-verify"),
                      verify == 0 && valid == 1);

    /* The same signature with one bit of s flipped is rejected. */
    uint8_t bad_sig[P256_SIG_LEN];
    for (size_t j = 0; j < sizeof bad_sig; ++j) bad_sig[j] = v->sig[j];
    bad_sig[P256_SIG_LEN - 1] ^= 0x01;
    valid = 1;
    verify = ret == 0 ? ecdsa_verify(&key, hash, bad_sig, &valid) : ret;
    fathom_kat_expect(wl_vector_name(name, sizeof name, v->name, "-reject"),
                      verify == 0 && valid == 0);
  }
  wc_ecc_free(&key);
}

static int ecdsa_sign_run(void) {
  uint8_t sig[P256_SIG_LEN];
  return ecdsa_sign(&ecdsa_private_key, ecdsa_hash, sig);
}

static int ecdsa_verify_run(void) {
  int valid = 0;
  const int ret = ecdsa_verify(&ecdsa_public_key, ecdsa_hash, ecdsa_p256_vectors[0].sig, &valid);
  return ret != 0 ? ret : (valid == 1 ? 0 : SIG_VERIFY_E);
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
