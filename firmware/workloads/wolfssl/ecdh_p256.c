/* fathom workloads: ECDH on P-256 (secp256r1) through wolfCrypt's ecc API.
 *
 * ecdh_p256_keygen: timed = wc_ecc_make_key_ex of a P-256 key pair (random scalar from the
 *   Hash_DRBG + one fixed-base scalar multiplication) and wc_ecc_export_x963 of its public key
 *   (the 65-byte uncompressed point a protocol sends), between wc_ecc_init and wc_ecc_free,
 *   as the Mbed TLS workload generates, exports and destroys a key in its run.
 * ecdh_p256_shared: timed = import of the fixed peer public key (wc_ecc_import_x963_ex), the
 *   check that it lies on the curve (wc_ecc_point_is_on_curve; PSA checks the peer point
 *   too) and wc_ecc_shared_secret with the private key imported in setup: one variable-base
 *   scalar multiplication. Its secret (`fathom ct`) is the private scalar
 *   (vectors/p256_secret_scalar.h), the peer's public key unchanged. */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/ecc.h>

#include "../vectors/ecdh_p256_cavp.h"
#include "../vectors/p256_secret_scalar.h"
#include "fathom_harness.h"
#include "wolf_util.h"

#define P256_PUB_LEN 65
#define P256_SECRET_LEN 32

static ecc_key ecdh_private_key;
static int ecdh_private_ready;

/* Imports the private scalar `d` (32 bytes) into `key` (initialized here), with the generator
 * attached: ECC_TIMING_RESISTANT needs an RNG for the blinding of the scalar multiplication. */
static int ecdh_import_private(const uint8_t *d, ecc_key *key) {
  int ret = wc_ecc_init(key);
  if (ret == 0) ret = wc_ecc_import_private_key_ex(d, 32, NULL, 0, key, ECC_SECP256R1);
  if (ret == 0) ret = wc_ecc_set_rng(key, &wl_rng);
  return ret;
}

/* Shared secret (x-coordinate, 32 bytes) of `priv` with the uncompressed peer point `peer_pub`
 * (65 bytes), after checking that the point lies on P-256. */
static int ecdh_shared(ecc_key *priv, const uint8_t *peer_pub, uint8_t *secret) {
  ecc_key peer;
  int ret = wc_ecc_init(&peer);
  if (ret != 0) return ret;
  ret = wc_ecc_import_x963_ex(peer_pub, P256_PUB_LEN, &peer, ECC_SECP256R1);
  if (ret == 0) ret = wc_ecc_point_is_on_curve(&peer.pubkey, wc_ecc_get_curve_idx(ECC_SECP256R1));
  word32 len = P256_SECRET_LEN;
  if (ret == 0) ret = wc_ecc_shared_secret(priv, &peer, secret, &len);
  if (ret == 0 && len != P256_SECRET_LEN) ret = BUFFER_E;
  wc_ecc_free(&peer);
  return ret;
}

/* ---- ecdh_p256_keygen */

static int ecdh_keygen_setup(void) { return wl_rng_ready(); }

/* Generates a key pair into `key` (initialized here; the caller frees it) and exports its
 * public key into `pub` (P256_PUB_LEN bytes). */
static int ecdh_generate(ecc_key *key, uint8_t *pub) {
  int ret = wc_ecc_init(key);
  if (ret == 0) ret = wc_ecc_make_key_ex(&wl_rng, 32, key, ECC_SECP256R1);
  if (ret == 0) ret = wc_ecc_set_rng(key, &wl_rng);
  word32 pub_len = P256_PUB_LEN;
  if (ret == 0) ret = wc_ecc_export_x963(key, pub, &pub_len);
  if (ret == 0 && pub_len != P256_PUB_LEN) ret = BUFFER_E;
  return ret;
}

static void ecdh_keygen_kat(void) {
  /* CAVP: the public key QIUT derived from the private key dIUT (import, then make and export
   * the public point). */
  for (size_t i = 0; i < sizeof ecdh_p256_vectors / sizeof ecdh_p256_vectors[0]; ++i) {
    const ecdh_p256_vector *v = &ecdh_p256_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-pub");
    ecc_key key;
    uint8_t pub[P256_PUB_LEN];
    word32 pub_len = sizeof pub;
    int ret = ecdh_import_private(v->diut, &key);
    if (ret == 0) ret = wc_ecc_make_pub(&key, NULL);
    if (ret == 0) ret = wc_ecc_export_x963(&key, pub, &pub_len);
    if (ret != 0 || pub_len != sizeof pub) {
      wl_kat_api_error(name, v->qiut, P256_PUB_LEN);
    } else {
      fathom_kat_check(name, pub, v->qiut, sizeof pub);
    }
    wc_ecc_free(&key);
  }

  /* Consistency of generated keys (no standard vector can fix a random key): two freshly
   * generated key pairs must agree on the same shared secret in both directions. */
  ecc_key a;
  ecc_key b;
  uint8_t pub_a[P256_PUB_LEN];
  uint8_t pub_b[P256_PUB_LEN];
  uint8_t secret_ab[P256_SECRET_LEN];
  uint8_t secret_ba[P256_SECRET_LEN];
  int ret_a = ecdh_generate(&a, pub_a);
  int ret_b = ecdh_generate(&b, pub_b);
  int ret = ret_a != 0 ? ret_a : ret_b;
  if (ret == 0) ret = ecdh_shared(&a, pub_b, secret_ab);
  if (ret == 0) ret = ecdh_shared(&b, pub_a, secret_ba);
  int agree = ret == 0;
  for (size_t i = 0; agree && i < P256_SECRET_LEN; ++i) agree = secret_ab[i] == secret_ba[i];
  fathom_kat_expect("p256-keygen-agree", agree);
  wc_ecc_free(&a);
  wc_ecc_free(&b);
}

static int ecdh_keygen_run(void) {
  ecc_key key;
  uint8_t pub[P256_PUB_LEN];
  const int ret = ecdh_generate(&key, pub);
  wc_ecc_free(&key);
  return ret;
}

static const fathom_op op_ecdh_p256_keygen = {
    .name = "ecdh_p256_keygen",
    .setup = ecdh_keygen_setup,
    .kat = ecdh_keygen_kat,
    .run = ecdh_keygen_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_ecdh_p256_keygen);

/* ---- ecdh_p256_shared: our key is CAVP COUNT 0's dIUT, the peer CAVP COUNT 0's QCAVS. */

static int ecdh_shared_setup(void) {
  int ret = wl_rng_ready();
  if (ret == 0 && !ecdh_private_ready) {
    ret = ecdh_import_private(ecdh_p256_vectors[0].diut, &ecdh_private_key);
    ecdh_private_ready = ret == 0;
  }
  return ret;
}

static void ecdh_shared_kat(void) {
  for (size_t i = 0; i < sizeof ecdh_p256_vectors / sizeof ecdh_p256_vectors[0]; ++i) {
    const ecdh_p256_vector *v = &ecdh_p256_vectors[i];
    ecc_key key;
    uint8_t secret[P256_SECRET_LEN];
    int ret = ecdh_import_private(v->diut, &key);
    if (ret == 0) ret = ecdh_shared(&key, v->qcavs, secret);
    if (ret != 0) {
      wl_kat_api_error(v->name, v->ziut, P256_SECRET_LEN);
    } else {
      fathom_kat_check(v->name, secret, v->ziut, sizeof secret);
    }
    wc_ecc_free(&key);
  }
}

static int ecdh_shared_run(void) {
  uint8_t secret[P256_SECRET_LEN];
  return ecdh_shared(&ecdh_private_key, ecdh_p256_vectors[0].qcavs, secret);
}

static void ecdh_shared_teardown(void) {
  if (ecdh_private_ready) wc_ecc_free(&ecdh_private_key);
  ecdh_private_ready = 0;
}

/* Variant v of the private scalar (fathom_op.secret), imported in place of setup's. */
static int ecdh_shared_secret(uint32_t variant) {
  uint8_t d[32];
  p256_secret_scalar(variant, d);
  ecdh_shared_teardown();
  int ret = ecdh_import_private(d, &ecdh_private_key);
  ecdh_private_ready = ret == 0;
  return ret;
}

static const fathom_op op_ecdh_p256_shared = {
    .name = "ecdh_p256_shared",
    .setup = ecdh_shared_setup,
    .kat = ecdh_shared_kat,
    .run = ecdh_shared_run,
    .teardown = ecdh_shared_teardown,
    .secret = ecdh_shared_secret,
};
FATHOM_REGISTER_OP(op_ecdh_p256_shared);
