/* Host generator for mldsa_kat.h: runs the NIST KAT procedure of PQCgenKAT_sign (count = 0)
 * with PQClean's ML-DSA clean code compiled natively, and prints the expected values the
 * firmware compares against. Rebuild the header with (P = the unpacked pqclean 0.8.1 tree,
 * `fathom sources` shows it):
 *
 *   P=.../pqclean-0.8.1/package/deps/PQClean; W=firmware/workloads/pqclean/vectors
 *   for k in 44 65 87; do
 *     cc -O2 -DMLDSA_K=$k -I$P/common -I$P/crypto_sign -Ifirmware/libs/pqclean \
 *        -Ifirmware/harness -o /tmp/gendsa$k $W/gen_mldsa_kat.c \
 *        firmware/libs/pqclean/randombytes_glue.c $P/common/fips202.c $P/common/aes.c \
 *        $P/common/sha2.c $P/crypto_sign/ml-dsa-$k/clean/*.c; done
 *   (/tmp/gendsa44; /tmp/gendsa65; /tmp/gendsa87) > $W/mldsa_kat.h   # after the preamble
 *
 * It also prints, as a comment, the SHA-256 of the count-0 signed message sm = sig || msg
 * (what the `sm` line of the NIST .rsp file holds), for comparison with published files. */
#include <stdio.h>
#include <string.h>

#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "fips202.h"
#include "sha2.h"

#if MLDSA_K == 44
#include "ml-dsa-44/clean/api.h"
#define P(x) PQCLEAN_MLDSA44_CLEAN_##x
#elif MLDSA_K == 65
#include "ml-dsa-65/clean/api.h"
#define P(x) PQCLEAN_MLDSA65_CLEAN_##x
#else
#include "ml-dsa-87/clean/api.h"
#define P(x) PQCLEAN_MLDSA87_CLEAN_##x
#endif

void fathom_random_bytes(uint8_t *out, size_t len) { memset(out, 0, len); }  // unused here

static void print(const char *name, const uint8_t *b, size_t n) {
  printf("static const uint8_t mldsa%d_kat0_%s[%zu] = {", MLDSA_K, name, n);
  for (size_t i = 0; i < n; ++i) printf("%s0x%02x%s", i % 12 ? " " : "\n    ", b[i], i + 1 < n ? "," : "");
  printf("};\n");
}

int main(void) {
  static uint8_t pk[P(CRYPTO_PUBLICKEYBYTES)], sk[P(CRYPTO_SECRETKEYBYTES)];
  static uint8_t sig[P(CRYPTO_BYTES)], msg[33], seed[48], entropy[48], h[32];
  size_t siglen = 0;
  for (int i = 0; i < 48; ++i) entropy[i] = (uint8_t)i;
  fathom_katrng_init(entropy);
  fathom_katrng_bytes(seed, 48);
  fathom_katrng_bytes(msg, sizeof msg);  /* mlen = 33 * (count + 1) */
  fathom_katrng_init(seed);
  fathom_katrng_select(1);
  P(crypto_sign_keypair)(pk, sk);
  P(crypto_sign_signature)(sig, &siglen, msg, sizeof msg, sk);
  if (siglen != sizeof sig) return 1;
  if (P(crypto_sign_verify)(sig, siglen, msg, sizeof msg, pk) != 0) return 1;
  printf("/* ML-DSA-%d, NIST KAT count = 0 (host build of PQClean 0.8.1 clean). */\n", MLDSA_K);
  print("seed", seed, 48);
  sha3_256(h, pk, sizeof pk);
  print("pk_sha3_256", h, 32);
  sha3_256(h, sk, sizeof sk);
  print("sk_sha3_256", h, 32);
  sha3_256(h, sig, sizeof sig);
  print("sig_sha3_256", h, 32);
  static uint8_t sm[sizeof sig + sizeof msg];
  memcpy(sm, sig, sizeof sig);
  memcpy(sm + sizeof sig, msg, sizeof msg);
  sha256(h, sm, sizeof sm);
  printf("/* SHA-256(sm) of count 0: ");
  for (int i = 0; i < 32; ++i) printf("%02x", h[i]);
  printf(" */\n");
  return 0;
}
