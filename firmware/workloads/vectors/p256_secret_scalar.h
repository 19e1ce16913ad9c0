/* fathom workloads: the private P-256 scalars `fathom ct` varies (fathom_op.secret), the same
 * for every library's ECDH workload so their verdicts compare: variant 0 is CAVP COUNT 0's dIUT
 * (ecdh_p256_cavp.h), variant v > 0 32 bytes of a xorshift stream seeded by v with its top bit
 * cleared (so below the group order) and its lowest bit set (never 0). The scalar is marked
 * secret (fathom_ct_secret) where it is written. */
#ifndef FATHOM_P256_SECRET_SCALAR_H
#define FATHOM_P256_SECRET_SCALAR_H

#include <stdint.h>

#include "ecdh_p256_cavp.h"
#include "fathom_harness.h"

static inline void p256_secret_scalar(uint32_t variant, uint8_t d[32]) {
  if (variant == 0) {
    for (unsigned i = 0; i < 32; ++i) d[i] = ecdh_p256_vectors[0].diut[i];
  } else {
    uint64_t x = 0x9E3779B97F4A7C15ull ^ ((uint64_t)variant * 0xD1B54A32D192ED03ull);
    for (unsigned i = 0; i < 32; ++i) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      d[i] = (uint8_t)(x >> 32);
    }
    d[0] &= 0x7Fu;
    d[31] |= 1u;
  }
  fathom_ct_secret(d, 32);
}

#endif
