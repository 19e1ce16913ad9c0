/* PQCLEAN_randombytes() for fathom firmware, and the NIST KAT DRBG (see fathom_pqclean_rng.h).
 *
 * The DRBG follows NIST's PQCgenKAT rng.c (AES256_CTR_DRBG_Update / randombytes_init /
 * randombytes), with AES-256 from PQClean common/aes.c. pqm4's reference measurements use a
 * hardware RNG here instead; either way this is outside what the operations compute. */
#include <string.h>

#include "aes.h"
#include "fathom_harness.h"
#include "fathom_pqclean_rng.h"
#include "randombytes.h"

static struct {
  uint8_t key[32];
  uint8_t v[16];
} drbg;
static int use_katrng;

static void aes256_ecb_block(const uint8_t key[32], const uint8_t in[16], uint8_t out[16]) {
  aes256ctx ctx;
  aes256_ecb_keyexp(&ctx, key);
  aes256_ecb(out, in, 1, &ctx);
  aes256_ctx_release(&ctx);
}

/* V is a 128-bit big-endian counter. */
static void increment_v(void) {
  for (int j = 15; j >= 0; --j) {
    if (++drbg.v[j] != 0) break;
  }
}

/* CTR_DRBG_Update (SP 800-90A 10.2.1.2) with seedlen = 48 bytes. */
static void drbg_update(const uint8_t *provided_data) {
  uint8_t temp[48];
  for (int i = 0; i < 3; ++i) {
    increment_v();
    aes256_ecb_block(drbg.key, drbg.v, temp + 16 * i);
  }
  if (provided_data != NULL)
    for (int i = 0; i < 48; ++i) temp[i] ^= provided_data[i];
  memcpy(drbg.key, temp, 32);
  memcpy(drbg.v, temp + 32, 16);
}

void fathom_katrng_init(const uint8_t entropy_input[48]) {
  memset(drbg.key, 0, sizeof drbg.key);
  memset(drbg.v, 0, sizeof drbg.v);
  drbg_update(entropy_input);
}

void fathom_katrng_bytes(uint8_t *out, size_t len) {
  uint8_t block[16];
  while (len > 0) {
    increment_v();
    aes256_ecb_block(drbg.key, drbg.v, block);
    const size_t n = len < 16 ? len : 16;
    memcpy(out, block, n);
    out += n;
    len -= n;
  }
  drbg_update(NULL);
}

void fathom_katrng_select(int on) { use_katrng = on; }

int randombytes(uint8_t *output, size_t n) {
  if (use_katrng)
    fathom_katrng_bytes(output, n);
  else
    fathom_random_bytes(output, n);
  return 0;
}
