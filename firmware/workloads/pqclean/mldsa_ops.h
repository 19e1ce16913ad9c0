/* The ML-DSA (FIPS 204) operations of one parameter set with PQClean's clean implementation:
 * a template, included once by each of mldsa44.c, mldsa65.c and mldsa87.c after defining
 *   MLDSA_NS(x)   the PQClean namespace, e.g. PQCLEAN_MLDSA44_CLEAN_##x
 *   MLDSA_KAT(x)  the known-answer data of vectors/mldsa_kat.h, e.g. mldsa44_kat0_##x
 * and including the parameter set's api.h. It defines (static, so each translation unit has
 * its own) the buffers, the hooks, and the initialiser lists MLDSA_KEYGEN_OP, MLDSA_SIGN_OP
 * and MLDSA_VERIFY_OP for the fathom_op structs, which stay in the .c files with their literal
 * `.name = "..."` (the form `fathom list` reads from the source).
 *
 * Timed operations (inputs prepared by setup with the harness's deterministic randomness):
 *   keygen:  crypto_sign_keypair (draws 32 random bytes: the seed xi)
 *   sign:    crypto_sign_signature of a 32-byte message with the setup secret key, hedged (draws
 *            32 random bytes: rnd). Signing repeats its rejection loop a message-dependent
 *            number of times, so its time is a distribution: the operation sets
 *            min_runs = MLDSA_SIGN_MIN_RUNS, and timed run r signs message r: bytes 0..3 are r
 *            (little-endian), bytes 4..31 a fixed pattern. Writing the message is part of the
 *            timed run (32 byte stores, noise against millions of cycles). The key stays fixed:
 *            a new key per run would add a keygen to every run.
 *   verify:  crypto_sign_verify of the setup signature over the setup message (fixed input:
 *            verification does not loop).
 *
 * Known-answer tests (every image, before timing): the NIST KAT procedure (PQCgenKAT_sign) for
 * count = 0: master DRBG seeded with bytes 0..47, entry seed and the 33-byte message drawn from
 * it, DRBG reseeded with the seed, then keypair and sign (deterministic given the DRBG; see
 * vectors/mldsa_kat.h for which values are standard and which are host cross-checks). Verify
 * must accept that signature and reject it after one bit of the signature, or of the message,
 * is flipped.
 *
 * Object sizes (BYTES records, from api.h): keygen and sign report public_key and secret_key,
 * sign and verify signature, verify public_key. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "fips202.h"
#include "vectors/mldsa_kat.h"

#define MLDSA_PK_BYTES MLDSA_NS(CRYPTO_PUBLICKEYBYTES)
#define MLDSA_SK_BYTES MLDSA_NS(CRYPTO_SECRETKEYBYTES)
#define MLDSA_SIG_BYTES MLDSA_NS(CRYPTO_BYTES)
/* Messages of the NIST KAT procedure: mlen = 33 * (count + 1). */
#define MLDSA_KAT0_MSG_BYTES 33
/* Length of the messages the timed sign and verify runs use. */
#define MLDSA_MSG_BYTES 32
/* Distinct messages the sign operation is timed over, at least. */
#define MLDSA_SIGN_MIN_RUNS 100

/* The setup key pair, message and signature the timed runs use, and scratch outputs. */
static uint8_t pk[MLDSA_PK_BYTES], sk[MLDSA_SK_BYTES], sig[MLDSA_SIG_BYTES];
static uint8_t msg[MLDSA_MSG_BYTES];
static uint8_t scratch_pk[MLDSA_PK_BYTES], scratch_sk[MLDSA_SK_BYTES];
static uint8_t scratch_sig[MLDSA_SIG_BYTES], scratch_msg[MLDSA_MSG_BYTES];

/* Message `index` of the timed sign runs (see the header comment). */
static void mldsa_message(uint8_t out[MLDSA_MSG_BYTES], uint32_t index) {
  for (int i = 0; i < 4; ++i) out[i] = (uint8_t)(index >> (8 * i));
  for (int i = 4; i < MLDSA_MSG_BYTES; ++i) out[i] = (uint8_t)(0xA5 ^ (i * 29));
}

/* Runs NIST KAT entry count = 0: key pair into scratch_pk/sk, signature into scratch_sig,
 * message into `m`. Reports the seed check if `check_seed`. Returns 0 when every API call
 * succeeded and the signature has the expected length. */
static int mldsa_kat0(uint8_t m[MLDSA_KAT0_MSG_BYTES], int check_seed) {
  uint8_t entropy[48], seed[48];
  for (int i = 0; i < 48; ++i) entropy[i] = (uint8_t)i;
  fathom_katrng_init(entropy);
  fathom_katrng_bytes(seed, sizeof seed);
  fathom_katrng_bytes(m, MLDSA_KAT0_MSG_BYTES);
  if (check_seed) fathom_kat_check("nist_kat_count0_seed", seed, MLDSA_KAT(seed), sizeof seed);
  fathom_katrng_init(seed);
  fathom_katrng_select(1);
  size_t siglen = 0;
  int rc = MLDSA_NS(crypto_sign_keypair)(scratch_pk, scratch_sk);
  rc |= MLDSA_NS(crypto_sign_signature)(scratch_sig, &siglen, m, MLDSA_KAT0_MSG_BYTES,
                                        scratch_sk);
  fathom_katrng_select(0);
  return rc != 0 || siglen != MLDSA_SIG_BYTES;
}

static void mldsa_check_digest(const char *vector, const uint8_t *data, size_t len,
                               const uint8_t expected[32]) {
  uint8_t digest[32];
  sha3_256(digest, data, len);
  fathom_kat_check(vector, digest, expected, sizeof digest);
}

static void mldsa_report_keys(void) {
  fathom_report_bytes("public_key", MLDSA_PK_BYTES);
  fathom_report_bytes("secret_key", MLDSA_SK_BYTES);
}

static void mldsa_keygen_kat(void) {
  mldsa_report_keys();
  uint8_t m[MLDSA_KAT0_MSG_BYTES];
  if (mldsa_kat0(m, 1) != 0) {
    fathom_kat_check("nist_kat_count0_pk", NULL, MLDSA_KAT(pk_sha3_256), 32);
    return;
  }
  mldsa_check_digest("nist_kat_count0_pk", scratch_pk, MLDSA_PK_BYTES, MLDSA_KAT(pk_sha3_256));
  mldsa_check_digest("nist_kat_count0_sk", scratch_sk, MLDSA_SK_BYTES, MLDSA_KAT(sk_sha3_256));
}

static void mldsa_sign_kat(void) {
  mldsa_report_keys();
  fathom_report_bytes("signature", MLDSA_SIG_BYTES);
  uint8_t m[MLDSA_KAT0_MSG_BYTES];
  if (mldsa_kat0(m, 0) != 0) {
    fathom_kat_check("nist_kat_count0_sig", NULL, MLDSA_KAT(sig_sha3_256), 32);
    return;
  }
  mldsa_check_digest("nist_kat_count0_sig", scratch_sig, MLDSA_SIG_BYTES,
                     MLDSA_KAT(sig_sha3_256));
}

static void mldsa_verify_kat(void) {
  fathom_report_bytes("public_key", MLDSA_PK_BYTES);
  fathom_report_bytes("signature", MLDSA_SIG_BYTES);
  uint8_t m[MLDSA_KAT0_MSG_BYTES];
  if (mldsa_kat0(m, 0) != 0) {
    fathom_kat_expect("nist_kat_count0_verify", 0);
    return;
  }
  fathom_kat_expect("nist_kat_count0_verify",
                    MLDSA_NS(crypto_sign_verify)(scratch_sig, MLDSA_SIG_BYTES, m,
                                                 MLDSA_KAT0_MSG_BYTES, scratch_pk) == 0);
  scratch_sig[MLDSA_SIG_BYTES / 2] ^= 0x01;
  fathom_kat_expect("corrupted_sig_rejected",
                    MLDSA_NS(crypto_sign_verify)(scratch_sig, MLDSA_SIG_BYTES, m,
                                                 MLDSA_KAT0_MSG_BYTES, scratch_pk) != 0);
  scratch_sig[MLDSA_SIG_BYTES / 2] ^= 0x01;
  m[0] ^= 0x01;
  fathom_kat_expect("corrupted_msg_rejected",
                    MLDSA_NS(crypto_sign_verify)(scratch_sig, MLDSA_SIG_BYTES, m,
                                                 MLDSA_KAT0_MSG_BYTES, scratch_pk) != 0);
}

/* Setup of all three operations: a key pair, and a signature of message 0 for verify. */
static int mldsa_setup(void) {
  fathom_katrng_select(0);
  if (MLDSA_NS(crypto_sign_keypair)(pk, sk) != 0) return 1;
  mldsa_message(msg, 0);
  size_t siglen = 0;
  if (MLDSA_NS(crypto_sign_signature)(sig, &siglen, msg, sizeof msg, sk) != 0) return 1;
  return siglen != MLDSA_SIG_BYTES;
}

static int mldsa_keygen_run(void) { return MLDSA_NS(crypto_sign_keypair)(scratch_pk, scratch_sk); }

static int mldsa_sign_run(void) {
  mldsa_message(scratch_msg, fathom_run_index());
  size_t siglen = 0;
  const int rc = MLDSA_NS(crypto_sign_signature)(scratch_sig, &siglen, scratch_msg,
                                                 sizeof scratch_msg, sk);
  return rc != 0 || siglen != MLDSA_SIG_BYTES;
}

static int mldsa_verify_run(void) {
  return MLDSA_NS(crypto_sign_verify)(sig, MLDSA_SIG_BYTES, msg, sizeof msg, pk);
}

/* The hooks of each operation, for `{.name = "...", MLDSA_KEYGEN_OP}`. */
#define MLDSA_KEYGEN_OP .setup = mldsa_setup, .kat = mldsa_keygen_kat, .run = mldsa_keygen_run
#define MLDSA_SIGN_OP                                                   \
  .setup = mldsa_setup, .kat = mldsa_sign_kat, .run = mldsa_sign_run, \
  .min_runs = MLDSA_SIGN_MIN_RUNS
#define MLDSA_VERIFY_OP .setup = mldsa_setup, .kat = mldsa_verify_kat, .run = mldsa_verify_run
