/* Deterministic test randomness: xoshiro128** (Blackman & Vigna, 2018) seeded by SplitMix32 from
 * a fixed seed. Every run of an image draws the same bytes, so results are reproducible. This is
 * an entropy *stand-in* for the library's own DRBG, not a cryptographic generator. */
#include <stddef.h>
#include <stdint.h>

#include "fathom_harness.h"

#define FATHOM_RANDOM_SEED 0x66617468u /* "fath" */

static uint32_t state[4];
static int seeded;

static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

static void seed(uint32_t s) {
  for (int i = 0; i < 4; ++i) {
    /* SplitMix32 */
    uint32_t z = (s += 0x9E3779B9u);
    z = (z ^ (z >> 16)) * 0x85EBCA6Bu;
    z = (z ^ (z >> 13)) * 0xC2B2AE35u;
    state[i] = z ^ (z >> 16);
  }
  seeded = 1;
}

static uint32_t next(void) {
  const uint32_t result = rotl(state[1] * 5u, 7) * 9u;
  const uint32_t t = state[1] << 9;
  state[2] ^= state[0];
  state[3] ^= state[1];
  state[1] ^= state[2];
  state[0] ^= state[3];
  state[2] ^= t;
  state[3] = rotl(state[3], 11);
  return result;
}

void fathom_random_bytes(uint8_t *out, size_t len) {
  if (!seeded) seed(FATHOM_RANDOM_SEED);
  while (len > 0) {
    uint32_t r = next();
    for (int i = 0; i < 4 && len > 0; ++i, --len) {
      *out++ = (uint8_t)r;
      r >>= 8;
    }
  }
}
