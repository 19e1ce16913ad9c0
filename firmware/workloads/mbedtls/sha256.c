/* fathom workloads: SHA-256 through the PSA Crypto API (psa_hash_compute).
 *
 * sha256_64:  one-shot hash of 64 bytes of fixed data (one message block plus the padding block)
 * sha256_1k:  one-shot hash of 1024 bytes of fixed data (16 message blocks plus padding) */
#include <stdint.h>

#include "fathom_harness.h"
#include "psa/crypto.h"
#include "psa_util.h"
#include "../vectors/sha256_fips180.h"

static uint8_t sha256_input[1024];

static int sha256_setup(void) {
  wl_fill_pattern(sha256_input, sizeof sha256_input);
  return wl_status(psa_crypto_init());
}

static void sha256_kat(void) {
  for (size_t i = 0; i < sizeof sha256_vectors / sizeof sha256_vectors[0]; ++i) {
    const sha256_vector *v = &sha256_vectors[i];
    uint8_t digest[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
    size_t digest_len = 0;
    psa_status_t status =
        psa_hash_compute(PSA_ALG_SHA_256, v->msg, v->msg_len, digest, sizeof digest, &digest_len);
    if (status != PSA_SUCCESS || digest_len != sizeof digest) {
      wl_kat_api_error(v->name, v->digest, sizeof digest);
      continue;
    }
    fathom_kat_check(v->name, digest, v->digest, sizeof digest);
  }
}

static int sha256_run_len(size_t len) {
  uint8_t digest[PSA_HASH_LENGTH(PSA_ALG_SHA_256)];
  size_t digest_len = 0;
  return wl_status(
      psa_hash_compute(PSA_ALG_SHA_256, sha256_input, len, digest, sizeof digest, &digest_len));
}

static int sha256_64_run(void) { return sha256_run_len(64); }
static int sha256_1k_run(void) { return sha256_run_len(1024); }

static const fathom_op op_sha256_64 = {
    .name = "sha256_64",
    .setup = sha256_setup,
    .kat = sha256_kat,
    .run = sha256_64_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_sha256_64);

static const fathom_op op_sha256_1k = {
    .name = "sha256_1k",
    .setup = sha256_setup,
    .kat = sha256_kat,
    .run = sha256_1k_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_sha256_1k);
