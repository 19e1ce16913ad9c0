/* fathom workloads: SHA-256 through wolfCrypt's one-shot wc_Sha256Hash.
 *
 * sha256_64:  one-shot hash of 64 bytes of fixed data (one message block plus the padding block)
 * sha256_1k:  one-shot hash of 1024 bytes of fixed data (16 message blocks plus padding)
 * Same data and vectors as the Mbed TLS workloads (psa_hash_compute). */
#include <stdint.h>

#include <wolfssl/wolfcrypt/settings.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/sha256.h>

#include "../vectors/sha256_fips180.h"
#include "fathom_harness.h"
#include "wolf_util.h"

static uint8_t sha256_input[1024];

static int sha256_setup(void) {
  wl_fill_pattern(sha256_input, sizeof sha256_input);
  return 0;
}

static void sha256_kat(void) {
  for (size_t i = 0; i < sizeof sha256_vectors / sizeof sha256_vectors[0]; ++i) {
    const sha256_vector *v = &sha256_vectors[i];
    uint8_t digest[WC_SHA256_DIGEST_SIZE];
    if (wc_Sha256Hash(v->msg, (word32)v->msg_len, digest) != 0) {
      wl_kat_api_error(v->name, v->digest, sizeof digest);
      continue;
    }
    fathom_kat_check(v->name, digest, v->digest, sizeof digest);
  }
}

static int sha256_run_len(size_t len) {
  uint8_t digest[WC_SHA256_DIGEST_SIZE];
  return wc_Sha256Hash(sha256_input, (word32)len, digest);
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
