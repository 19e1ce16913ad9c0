/* fathom workloads: ECDH on P-256 (secp256r1) through the PSA Crypto API.
 *
 * ecdh_p256_keygen: timed = psa_generate_key of a SECP_R1 256-bit key pair (random scalar from
 *   the PSA DRBG + one fixed-base scalar multiplication) and psa_export_public_key of it (the
 *   65-byte uncompressed point a protocol sends). The generated key is destroyed inside run
 *   too, so that repeated runs do not fill the key store; destroying a volatile key is a
 *   free() and a memset, small next to the scalar multiplication.
 * ecdh_p256_shared: timed = psa_raw_key_agreement of an imported private key (setup) with a
 *   fixed peer public key (one variable-base scalar multiplication plus the peer point check).
 *   Its secret (`fathom ct`) is the private scalar: variant 0 is CAVP's dIUT, variant v > 0 a
 *   scalar drawn from v, the peer's public key unchanged. */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/ecdh_p256_cavp.h"
#include "../vectors/p256_secret_scalar.h"

#define P256_PUB_LEN \
  PSA_EXPORT_PUBLIC_KEY_OUTPUT_SIZE(PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1), 256)
#define P256_SECRET_LEN 32

static psa_key_id_t ecdh_private_key;

static void ecdh_key_pair_attributes(psa_key_attributes_t *attributes) {
  psa_set_key_type(attributes, PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1));
  psa_set_key_bits(attributes, 256);
  psa_set_key_usage_flags(attributes, PSA_KEY_USAGE_DERIVE);
  psa_set_key_algorithm(attributes, PSA_ALG_ECDH);
}

static psa_status_t ecdh_import_private(const uint8_t *d, psa_key_id_t *id) {
  return wl_import_key(PSA_KEY_TYPE_ECC_KEY_PAIR(PSA_ECC_FAMILY_SECP_R1), 256, PSA_KEY_USAGE_DERIVE,
                       PSA_ALG_ECDH, d, 32, id);
}

/* ---- ecdh_p256_keygen */

static int ecdh_keygen_setup(void) {
  /* What a key exchange sends (our public key) and keeps (the private key while it runs). */
  fathom_report_bytes("public_key", P256_PUB_LEN);
  fathom_report_bytes("private_key", PSA_BITS_TO_BYTES(256));
  return wl_status(psa_crypto_init());
}

/* Generates a key pair and exports its public key into `pub` (P256_PUB_LEN bytes). */
static psa_status_t ecdh_generate(psa_key_id_t *id, uint8_t *pub) {
  psa_key_attributes_t attributes = PSA_KEY_ATTRIBUTES_INIT;
  ecdh_key_pair_attributes(&attributes);
  psa_status_t status = psa_generate_key(&attributes, id);
  psa_reset_key_attributes(&attributes);
  size_t pub_len = 0;
  if (status == PSA_SUCCESS) status = psa_export_public_key(*id, pub, P256_PUB_LEN, &pub_len);
  if (status == PSA_SUCCESS && pub_len != P256_PUB_LEN) status = PSA_ERROR_GENERIC_ERROR;
  return status;
}

static void ecdh_keygen_kat(void) {
  /* CAVP: the public key QIUT derived from the private key dIUT (import, then export public). */
  for (size_t i = 0; i < sizeof ecdh_p256_vectors / sizeof ecdh_p256_vectors[0]; ++i) {
    const ecdh_p256_vector *v = &ecdh_p256_vectors[i];
    char name[32];
    wl_vector_name(name, sizeof name, v->name, "-pub");
    psa_key_id_t key = PSA_KEY_ID_NULL;
    uint8_t pub[P256_PUB_LEN];
    size_t pub_len = 0;
    psa_status_t status = ecdh_import_private(v->diut, &key);
    if (status == PSA_SUCCESS) status = psa_export_public_key(key, pub, sizeof pub, &pub_len);
    if (status != PSA_SUCCESS || pub_len != sizeof pub) {
      wl_kat_api_error(name, v->qiut, P256_PUB_LEN);
    } else {
      fathom_kat_check(name, pub, v->qiut, sizeof pub);
    }
    psa_destroy_key(key);
  }

  /* Consistency of generated keys (no standard vector can fix a random key): two freshly
   * generated key pairs must agree on the same shared secret in both directions. */
  psa_key_id_t a = PSA_KEY_ID_NULL;
  psa_key_id_t b = PSA_KEY_ID_NULL;
  uint8_t pub_a[P256_PUB_LEN];
  uint8_t pub_b[P256_PUB_LEN];
  uint8_t secret_ab[P256_SECRET_LEN];
  uint8_t secret_ba[P256_SECRET_LEN];
  size_t len_ab = 0;
  size_t len_ba = 0;
  psa_status_t status = ecdh_generate(&a, pub_a);
  if (status == PSA_SUCCESS) status = ecdh_generate(&b, pub_b);
  if (status == PSA_SUCCESS) {
    status = psa_raw_key_agreement(PSA_ALG_ECDH, a, pub_b, sizeof pub_b, secret_ab,
                                   sizeof secret_ab, &len_ab);
  }
  if (status == PSA_SUCCESS) {
    status = psa_raw_key_agreement(PSA_ALG_ECDH, b, pub_a, sizeof pub_a, secret_ba,
                                   sizeof secret_ba, &len_ba);
  }
  int agree = status == PSA_SUCCESS && len_ab == P256_SECRET_LEN && len_ba == P256_SECRET_LEN;
  for (size_t i = 0; agree && i < P256_SECRET_LEN; ++i) agree = secret_ab[i] == secret_ba[i];
  fathom_kat_expect("p256-keygen-agree", agree);
  psa_destroy_key(a);
  psa_destroy_key(b);
}

static int ecdh_keygen_run(void) {
  psa_key_id_t key = PSA_KEY_ID_NULL;
  uint8_t pub[P256_PUB_LEN];
  psa_status_t status = ecdh_generate(&key, pub);
  psa_status_t destroy_status = psa_destroy_key(key);
  return wl_status(status != PSA_SUCCESS ? status : destroy_status);
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
  fathom_report_bytes("peer_public_key", P256_PUB_LEN); /* what the peer sends us */
  fathom_report_bytes("shared_secret", P256_SECRET_LEN);
  psa_status_t status = psa_crypto_init();
  if (status == PSA_SUCCESS && ecdh_private_key == PSA_KEY_ID_NULL) {
    status = ecdh_import_private(ecdh_p256_vectors[0].diut, &ecdh_private_key);
  }
  return wl_status(status);
}

static void ecdh_shared_kat(void) {
  for (size_t i = 0; i < sizeof ecdh_p256_vectors / sizeof ecdh_p256_vectors[0]; ++i) {
    const ecdh_p256_vector *v = &ecdh_p256_vectors[i];
    psa_key_id_t key = PSA_KEY_ID_NULL;
    uint8_t secret[P256_SECRET_LEN];
    size_t secret_len = 0;
    psa_status_t status = ecdh_import_private(v->diut, &key);
    if (status == PSA_SUCCESS) {
      status = psa_raw_key_agreement(PSA_ALG_ECDH, key, v->qcavs, P256_PUB_LEN, secret,
                                     sizeof secret, &secret_len);
    }
    if (status != PSA_SUCCESS || secret_len != sizeof secret) {
      wl_kat_api_error(v->name, v->ziut, P256_SECRET_LEN);
    } else {
      fathom_kat_check(v->name, secret, v->ziut, sizeof secret);
    }
    psa_destroy_key(key);
  }
}

static int ecdh_shared_run(void) {
  uint8_t secret[P256_SECRET_LEN];
  size_t secret_len = 0;
  return wl_status(psa_raw_key_agreement(PSA_ALG_ECDH, ecdh_private_key, ecdh_p256_vectors[0].qcavs,
                                         P256_PUB_LEN, secret, sizeof secret, &secret_len));
}

/* Variant v of the private scalar (fathom_op.secret; vectors/p256_secret_scalar.h). */
static int ecdh_shared_secret(uint32_t variant) {
  uint8_t d[32];
  p256_secret_scalar(variant, d);
  psa_destroy_key(ecdh_private_key);
  ecdh_private_key = PSA_KEY_ID_NULL;
  return wl_status(ecdh_import_private(d, &ecdh_private_key));
}

static void ecdh_shared_teardown(void) {
  psa_destroy_key(ecdh_private_key);
  ecdh_private_key = PSA_KEY_ID_NULL;
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
