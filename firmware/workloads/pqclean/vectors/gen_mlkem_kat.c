/* Host generator for mlkem_kat.h: runs the NIST KAT procedure (count = 0) with PQClean's ML-KEM
 * clean code compiled natively, and prints the expected values the firmware compares against.
 * Rebuild the header with (P = the unpacked pqclean 0.8.1 tree, `fathom sources` shows it):
 *
 *   P=.../pqclean-0.8.1/package/deps/PQClean; W=firmware/workloads/pqclean/vectors
 *   for k in 512 768 1024; do
 *     cc -O2 -DMLKEM_K=$k -I$P/common -I$P/crypto_kem -Ifirmware/libs/pqclean \
 *        -Ifirmware/harness -o /tmp/gen$k $W/gen_mlkem_kat.c \
 *        firmware/libs/pqclean/randombytes_glue.c $P/common/fips202.c $P/common/aes.c \
 *        $P/crypto_kem/ml-kem-$k/clean/*.c; done
 *   (/tmp/gen512; /tmp/gen768; /tmp/gen1024) > $W/mlkem_kat.h   # after the fixed preamble
 */
#include <stdio.h>
#include <string.h>

#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "fips202.h"

#if MLKEM_K == 512
#include "ml-kem-512/clean/api.h"
#define P(x) PQCLEAN_MLKEM512_CLEAN_##x
#elif MLKEM_K == 768
#include "ml-kem-768/clean/api.h"
#define P(x) PQCLEAN_MLKEM768_CLEAN_##x
#else
#include "ml-kem-1024/clean/api.h"
#define P(x) PQCLEAN_MLKEM1024_CLEAN_##x
#endif

void fathom_random_bytes(uint8_t *out, size_t len) { memset(out, 0, len); }  // unused here

static void print(const char *name, const uint8_t *b, size_t n) {
  printf("static const uint8_t mlkem%d_kat0_%s[%zu] = {", MLKEM_K, name, n);
  for (size_t i = 0; i < n; ++i) printf("%s0x%02x%s", i % 12 ? " " : "\n    ", b[i], i + 1 < n ? "," : "");
  printf("};\n");
}

int main(void) {
  static uint8_t pk[P(CRYPTO_PUBLICKEYBYTES)], sk[P(CRYPTO_SECRETKEYBYTES)];
  static uint8_t ct[P(CRYPTO_CIPHERTEXTBYTES)], ss[32], ss2[32], seed[48], entropy[48], h[32];
  for (int i = 0; i < 48; ++i) entropy[i] = (uint8_t)i;
  fathom_katrng_init(entropy);
  fathom_katrng_bytes(seed, 48);
  fathom_katrng_init(seed);
  fathom_katrng_select(1);
  P(crypto_kem_keypair)(pk, sk);
  P(crypto_kem_enc)(ct, ss, pk);
  P(crypto_kem_dec)(ss2, ct, sk);
  if (memcmp(ss, ss2, 32) != 0) return 1;
  printf("/* ML-KEM-%d, NIST KAT count = 0 (host build of PQClean 0.8.1 clean). */\n", MLKEM_K);
  print("seed", seed, 48);
  sha3_256(h, pk, sizeof pk);
  print("pk_sha3_256", h, 32);
  sha3_256(h, sk, sizeof sk);
  print("sk_sha3_256", h, 32);
  sha3_256(h, ct, sizeof ct);
  print("ct_sha3_256", h, 32);
  print("ss", ss, 32);
  return 0;
}
