/* The ML-KEM (FIPS 203) operations of one parameter set with PQClean's clean implementation:
 * a template, included once by each of mlkem512.c, mlkem768.c and mlkem1024.c after defining
 *   MLKEM_NS(x)   the PQClean namespace, e.g. PQCLEAN_MLKEM512_CLEAN_##x
 *   MLKEM_KAT(x)  the known-answer data of vectors/mlkem_kat.h, e.g. mlkem512_kat0_##x
 * and including the parameter set's api.h. It defines (static, so each translation unit has
 * its own) the buffers, the hooks, and the initialiser lists MLKEM_KEYGEN_OP, MLKEM_ENCAPS_OP
 * and MLKEM_DECAPS_OP for the fathom_op structs, which stay in the .c files with their literal
 * `.name = "..."` (the form `fathom list` reads from the source).
 *
 * Timed operations (inputs prepared by setup with the harness's deterministic randomness):
 *   keygen:  crypto_kem_keypair (draws 64 random bytes: d and z)
 *   encaps:  crypto_kem_enc against the setup key pair (draws 32 random bytes: m)
 *   decaps:  crypto_kem_dec of the setup ciphertext (the valid-ciphertext path)
 * Their time does not depend on the input (constant-time code, fixed sizes), so each run
 * repeats the same input.
 *
 * Known-answer tests (every image, before timing): the NIST KAT procedure for count = 0 (see
 * vectors/mlkem_kat.h for which values are standard and which are host cross-checks), plus
 * FIPS 203 properties checked on the target itself: decaps recovers the encapsulated secret,
 * and a corrupted ciphertext gives the implicit-rejection key J(z || c') = SHAKE256(z || c', 32)
 * (FIPS 203 Algorithm 18, ML-KEM.Decaps_internal), not the real secret.
 *
 * Object sizes (BYTES records, from api.h): keygen reports public_key and secret_key, encaps
 * and decaps report ciphertext and shared_secret. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "fips202.h"
#include "vectors/mlkem_kat.h"

#define MLKEM_PK_BYTES MLKEM_NS(CRYPTO_PUBLICKEYBYTES)
#define MLKEM_SK_BYTES MLKEM_NS(CRYPTO_SECRETKEYBYTES)
#define MLKEM_CT_BYTES MLKEM_NS(CRYPTO_CIPHERTEXTBYTES)
#define MLKEM_SS_BYTES MLKEM_NS(CRYPTO_BYTES)

_Static_assert(MLKEM_SS_BYTES == 32, "FIPS 203 shared secrets are 32 bytes");

/* The setup key pair and ciphertext the timed runs use, and scratch outputs. */
static uint8_t pk[MLKEM_PK_BYTES], sk[MLKEM_SK_BYTES], ct[MLKEM_CT_BYTES];
static uint8_t scratch_pk[MLKEM_PK_BYTES], scratch_sk[MLKEM_SK_BYTES];
static uint8_t scratch_ct[MLKEM_CT_BYTES];

/* Runs NIST KAT entry count = 0 into scratch_pk/sk/ct; reports the seed check if
 * `check_seed`. Returns 0 when every API call succeeded. `ss` receives enc's secret, `ss_dec`
 * dec's. */
static int mlkem_kat0(uint8_t ss[32], uint8_t ss_dec[32], int check_seed) {
  uint8_t entropy[48], seed[48];
  for (int i = 0; i < 48; ++i) entropy[i] = (uint8_t)i;
  fathom_katrng_init(entropy);
  fathom_katrng_bytes(seed, sizeof seed);
  if (check_seed) fathom_kat_check("nist_kat_count0_seed", seed, MLKEM_KAT(seed), sizeof seed);
  fathom_katrng_init(seed);
  fathom_katrng_select(1);
  int rc = MLKEM_NS(crypto_kem_keypair)(scratch_pk, scratch_sk);
  rc |= MLKEM_NS(crypto_kem_enc)(scratch_ct, ss, scratch_pk);
  fathom_katrng_select(0);
  rc |= MLKEM_NS(crypto_kem_dec)(ss_dec, scratch_ct, scratch_sk);
  return rc;
}

static void mlkem_check_digest(const char *vector, const uint8_t *data, size_t len,
                               const uint8_t expected[32]) {
  uint8_t digest[32];
  sha3_256(digest, data, len);
  fathom_kat_check(vector, digest, expected, sizeof digest);
}

static void mlkem_keygen_kat(void) {
  fathom_report_bytes("public_key", MLKEM_PK_BYTES);
  fathom_report_bytes("secret_key", MLKEM_SK_BYTES);
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(ss, ss_dec, 1) != 0) {
    fathom_kat_check("nist_kat_count0_pk", NULL, MLKEM_KAT(pk_sha3_256), 32);
    return;
  }
  mlkem_check_digest("nist_kat_count0_pk", scratch_pk, MLKEM_PK_BYTES, MLKEM_KAT(pk_sha3_256));
  mlkem_check_digest("nist_kat_count0_sk", scratch_sk, MLKEM_SK_BYTES, MLKEM_KAT(sk_sha3_256));
}

static void mlkem_report_ct_ss(void) {
  fathom_report_bytes("ciphertext", MLKEM_CT_BYTES);
  fathom_report_bytes("shared_secret", MLKEM_SS_BYTES);
}

static void mlkem_encaps_kat(void) {
  mlkem_report_ct_ss();
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(ss, ss_dec, 0) != 0) {
    fathom_kat_check("nist_kat_count0_ct", NULL, MLKEM_KAT(ct_sha3_256), 32);
    return;
  }
  mlkem_check_digest("nist_kat_count0_ct", scratch_ct, MLKEM_CT_BYTES, MLKEM_KAT(ct_sha3_256));
  fathom_kat_check("nist_kat_count0_ss", ss, MLKEM_KAT(ss), 32);
}

static void mlkem_decaps_kat(void) {
  mlkem_report_ct_ss();
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(ss, ss_dec, 0) != 0) {
    fathom_kat_check("nist_kat_count0_decaps", NULL, MLKEM_KAT(ss), 32);
    return;
  }
  fathom_kat_check("nist_kat_count0_decaps", ss_dec, MLKEM_KAT(ss), 32);

  /* Implicit rejection: flip one bit of the ciphertext. */
  scratch_ct[MLKEM_CT_BYTES / 2] ^= 0x01;
  uint8_t ss_bad[32], expected_bad[32], j_input[32 + MLKEM_CT_BYTES];
  const int rc = MLKEM_NS(crypto_kem_dec)(ss_bad, scratch_ct, scratch_sk);
  memcpy(j_input, scratch_sk + MLKEM_SK_BYTES - 32, 32); /* z: the last 32 bytes of dk */
  memcpy(j_input + 32, scratch_ct, MLKEM_CT_BYTES);
  shake256(expected_bad, sizeof expected_bad, j_input, sizeof j_input);
  fathom_kat_expect("corrupted_ct_not_real_secret", rc == 0 && memcmp(ss_bad, ss, 32) != 0);
  fathom_kat_check("corrupted_ct_implicit_rejection", rc == 0 ? ss_bad : NULL, expected_bad, 32);
}

/* Decapsulation's secret (`fathom ct`, docs/CT.md): variant v of the decapsulation key's secret
 * parts, dk_PKE (the first 384k bytes, k * 384 = MLKEM_PK_BYTES - 32) and z (the last 32), each
 * byte XORed with a pattern drawn from v; variant 0 is setup's key. The ciphertext stays
 * setup's, so every variant but 0 takes the implicit-rejection path: the time must not tell. The
 * public parts (ek, H(ek)) are not declared: the re-encryption's matrix sampling depends on
 * them, publicly. */
#define MLKEM_DK_PKE_BYTES (MLKEM_PK_BYTES - 32)
static uint32_t decaps_variant;

static void mlkem_toggle_secret(uint32_t variant) {
  if (variant == 0) return;
  uint32_t x = 0x9E3779B9u ^ (variant * 0x85EBCA6Bu);
  for (size_t i = 0; i < MLKEM_SK_BYTES; ++i) {
    if (i == MLKEM_DK_PKE_BYTES) i = MLKEM_SK_BYTES - 32; /* skip ek and H(ek) */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    sk[i] ^= (uint8_t)x;
  }
}

static int mlkem_decaps_secret(uint32_t variant) {
  mlkem_toggle_secret(decaps_variant); /* back to setup's key */
  mlkem_toggle_secret(variant);
  decaps_variant = variant;
  fathom_ct_secret(sk, MLKEM_DK_PKE_BYTES);
  fathom_ct_secret(sk + MLKEM_SK_BYTES - 32, 32);
  return 0;
}

/* Setup of all three operations: a key pair and a ciphertext from the harness's randomness. */
static int mlkem_setup(void) {
  uint8_t ss[32];
  decaps_variant = 0; /* a fresh key is variant 0 of its secret */
  fathom_katrng_select(0);
  if (MLKEM_NS(crypto_kem_keypair)(pk, sk) != 0) return 1;
  return MLKEM_NS(crypto_kem_enc)(ct, ss, pk);
}

static int mlkem_keygen_run(void) { return MLKEM_NS(crypto_kem_keypair)(scratch_pk, scratch_sk); }

static int mlkem_encaps_run(void) {
  uint8_t ss[32];
  return MLKEM_NS(crypto_kem_enc)(scratch_ct, ss, pk);
}

static int mlkem_decaps_run(void) {
  uint8_t ss[32];
  return MLKEM_NS(crypto_kem_dec)(ss, ct, sk);
}

/* The hooks of each operation, for `{.name = "...", MLKEM_KEYGEN_OP}`. */
#define MLKEM_KEYGEN_OP .setup = mlkem_setup, .kat = mlkem_keygen_kat, .run = mlkem_keygen_run
#define MLKEM_ENCAPS_OP .setup = mlkem_setup, .kat = mlkem_encaps_kat, .run = mlkem_encaps_run
#define MLKEM_DECAPS_OP                                                  \
  .setup = mlkem_setup, .kat = mlkem_decaps_kat, .run = mlkem_decaps_run, \
  .secret = mlkem_decaps_secret
