/* The ML-KEM operations of one parameter set, shared by mlkem512.c and mlkem768.c (each
 * includes this header once and instantiates it with its PQClean functions and KAT data).
 *
 * Timed operations (inputs prepared by setup with the harness's deterministic randomness):
 *   keygen:  crypto_kem_keypair (draws 64 random bytes: d and z)
 *   encaps:  crypto_kem_enc against the setup key pair (draws 32 random bytes: m)
 *   decaps:  crypto_kem_dec of the setup ciphertext (the valid-ciphertext path)
 *
 * Known-answer tests (every image, before timing): the NIST KAT procedure for count = 0 (see
 * vectors/mlkem_kat.h for which values are standard and which are host cross-checks), plus
 * FIPS 203 properties checked on the target itself: decaps recovers the encapsulated secret,
 * and a corrupted ciphertext gives the implicit-rejection key J(z || c') = SHAKE256(z || c', 32)
 * (FIPS 203 Algorithm 18, ML-KEM.Decaps_internal), not the real secret. */
#ifndef MLKEM_OPS_H
#define MLKEM_OPS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "fips202.h"

typedef struct {
  size_t pk_bytes, sk_bytes, ct_bytes;
  int (*keypair)(uint8_t *pk, uint8_t *sk);
  int (*enc)(uint8_t *ct, uint8_t *ss, const uint8_t *pk);
  int (*dec)(uint8_t *ss, const uint8_t *ct, const uint8_t *sk);
  const uint8_t *kat_seed;         /* 48 bytes */
  const uint8_t *kat_pk_sha3_256;  /* 32 bytes each */
  const uint8_t *kat_sk_sha3_256;
  const uint8_t *kat_ct_sha3_256;
  const uint8_t *kat_ss;
  uint8_t *pk, *sk, *ct;           /* buffers of pk_bytes, sk_bytes, ct_bytes */
  uint8_t *scratch_pk, *scratch_sk, *scratch_ct;
} mlkem_set;

/* Runs NIST KAT entry count = 0 into set->pk/sk/ct; reports the seed check. Returns 0 when
 * every API call succeeded. `ss` receives enc's secret, `ss_dec` dec's. */
static int mlkem_kat0(const mlkem_set *s, uint8_t ss[32], uint8_t ss_dec[32], int check_seed) {
  uint8_t entropy[48], seed[48];
  for (int i = 0; i < 48; ++i) entropy[i] = (uint8_t)i;
  fathom_katrng_init(entropy);
  fathom_katrng_bytes(seed, sizeof seed);
  if (check_seed) fathom_kat_check("nist_kat_count0_seed", seed, s->kat_seed, sizeof seed);
  fathom_katrng_init(seed);
  fathom_katrng_select(1);
  int rc = s->keypair(s->scratch_pk, s->scratch_sk);
  rc |= s->enc(s->scratch_ct, ss, s->scratch_pk);
  fathom_katrng_select(0);
  rc |= s->dec(ss_dec, s->scratch_ct, s->scratch_sk);
  return rc;
}

static void mlkem_check_digest(const char *vector, const uint8_t *data, size_t len,
                               const uint8_t expected[32]) {
  uint8_t digest[32];
  sha3_256(digest, data, len);
  fathom_kat_check(vector, digest, expected, sizeof digest);
}

static void mlkem_keygen_kat(const mlkem_set *s) {
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(s, ss, ss_dec, 1) != 0) {
    fathom_kat_check("nist_kat_count0_pk", NULL, s->kat_pk_sha3_256, 32);
    return;
  }
  mlkem_check_digest("nist_kat_count0_pk", s->scratch_pk, s->pk_bytes, s->kat_pk_sha3_256);
  mlkem_check_digest("nist_kat_count0_sk", s->scratch_sk, s->sk_bytes, s->kat_sk_sha3_256);
}

static void mlkem_encaps_kat(const mlkem_set *s) {
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(s, ss, ss_dec, 0) != 0) {
    fathom_kat_check("nist_kat_count0_ct", NULL, s->kat_ct_sha3_256, 32);
    return;
  }
  mlkem_check_digest("nist_kat_count0_ct", s->scratch_ct, s->ct_bytes, s->kat_ct_sha3_256);
  fathom_kat_check("nist_kat_count0_ss", ss, s->kat_ss, 32);
}

static void mlkem_decaps_kat(const mlkem_set *s) {
  uint8_t ss[32], ss_dec[32];
  if (mlkem_kat0(s, ss, ss_dec, 0) != 0) {
    fathom_kat_check("nist_kat_count0_decaps", NULL, s->kat_ss, 32);
    return;
  }
  fathom_kat_check("nist_kat_count0_decaps", ss_dec, s->kat_ss, 32);

  /* Implicit rejection: flip one bit of the ciphertext. */
  s->scratch_ct[s->ct_bytes / 2] ^= 0x01;
  uint8_t ss_bad[32], expected_bad[32], j_input[32 + 1088];
  const int rc = s->dec(ss_bad, s->scratch_ct, s->scratch_sk);
  memcpy(j_input, s->scratch_sk + s->sk_bytes - 32, 32); /* z: the last 32 bytes of dk */
  memcpy(j_input + 32, s->scratch_ct, s->ct_bytes);
  shake256(expected_bad, sizeof expected_bad, j_input, 32 + s->ct_bytes);
  fathom_kat_expect("corrupted_ct_not_real_secret", rc == 0 && memcmp(ss_bad, ss, 32) != 0);
  fathom_kat_check("corrupted_ct_implicit_rejection", rc == 0 ? ss_bad : NULL, expected_bad, 32);
}

/* Setup of all three operations: a key pair and a ciphertext from the harness's randomness. */
static int mlkem_setup(const mlkem_set *s) {
  uint8_t ss[32];
  fathom_katrng_select(0);
  if (s->keypair(s->pk, s->sk) != 0) return 1;
  return s->enc(s->ct, ss, s->pk);
}

static int mlkem_keygen_run(const mlkem_set *s) { return s->keypair(s->scratch_pk, s->scratch_sk); }

static int mlkem_encaps_run(const mlkem_set *s) {
  uint8_t ss[32];
  return s->enc(s->scratch_ct, ss, s->pk);
}

static int mlkem_decaps_run(const mlkem_set *s) {
  uint8_t ss[32];
  return s->dec(ss, s->ct, s->sk);
}

/* Defines the hooks <prefix>_setup, <prefix>_{keygen,encaps,decaps}_{kat,run} for the
 * mlkem_set `set`. The fathom_op structs stay spelled out in the .c files, with literal
 * `.name = "..."` initializers that `fathom list` reads from the source. */
#define MLKEM_DEFINE_HOOKS(prefix, set)                                         \
  static int prefix##_setup(void) { return mlkem_setup(&(set)); }               \
  static void prefix##_keygen_kat(void) { mlkem_keygen_kat(&(set)); }           \
  static void prefix##_encaps_kat(void) { mlkem_encaps_kat(&(set)); }           \
  static void prefix##_decaps_kat(void) { mlkem_decaps_kat(&(set)); }           \
  static int prefix##_keygen_run(void) { return mlkem_keygen_run(&(set)); }     \
  static int prefix##_encaps_run(void) { return mlkem_encaps_run(&(set)); }     \
  static int prefix##_decaps_run(void) { return mlkem_decaps_run(&(set)); }

#endif /* MLKEM_OPS_H */
