/* fathom workloads: Mbed TLS's own constant-time code as known cases for `fathom ct` (docs/CT.md),
 * compiled only with the harness define FATHOM_CT_FIXTURES (tests/e2e/suites/ct.toml), like the
 * harness's fixtures (firmware/harness/fathom_ct_fixtures.c).
 *
 * ct_mbedtls_memcmp: mbedtls_ct_memcmp of a received 16-byte tag (public) with the expected tag
 *   (secret): variant v agrees with the received tag in its first v mod 17 bytes, as the
 *   fixture's early-exit compare is given.
 * ct_mbedtls_inv_mod: mbedtls_mpi_inv_mod of a secret 256-bit value modulo the P-256 group order
 *   n (public): the modular inversion an ECDSA signature makes of its nonce. Variant v is 32
 *   bytes drawn from v, below n (top bit clear) and odd. Constant-time in 3.6; in 2.28 (the same
 *   file, firmware/workloads/mbedtls-2.28) a binary extended Euclid that branches on its bits. */
#ifdef FATHOM_CT_FIXTURES

#include <stdint.h>
#include <string.h>

#include "fathom_harness.h"
#include "mbedtls/bignum.h"
#include "mbedtls/constant_time.h"

/* Mbed TLS 2.28 (firmware/workloads/mbedtls-2.28 compiles this file too) has public struct
 * members and no MBEDTLS_PRIVATE. */
#ifndef MBEDTLS_PRIVATE
#define MBEDTLS_PRIVATE(member) member
#endif

#define TAG_BYTES 16

/* ---- mbedtls_ct_memcmp */

static const uint8_t received_tag[TAG_BYTES] = {0x6d, 0x62, 0x65, 0x64, 0x74, 0x6c, 0x73, 0x20,
                                                0x63, 0x74, 0x20, 0x6d, 0x65, 0x6d, 0x63, 0x6d};
static uint8_t expected_tag[TAG_BYTES];
static volatile int tag_verdict;

static int memcmp_secret(uint32_t variant) {
  const uint32_t agree = variant % (TAG_BYTES + 1);
  for (uint32_t i = 0; i < TAG_BYTES; ++i)
    expected_tag[i] = i < agree ? received_tag[i] : (uint8_t)(received_tag[i] ^ (1u + (i & 7u)));
  fathom_ct_secret(expected_tag, sizeof expected_tag);
  return 0;
}

static int memcmp_setup(void) { return memcmp_secret(0); }

static void memcmp_kat(void) {
  uint8_t same[TAG_BYTES], last[TAG_BYTES];
  memcpy(same, received_tag, TAG_BYTES);
  memcpy(last, received_tag, TAG_BYTES);
  last[TAG_BYTES - 1] ^= 0x80u;
  fathom_kat_expect("equal-tags-accepted", mbedtls_ct_memcmp(received_tag, same, TAG_BYTES) == 0);
  fathom_kat_expect("last-byte-differs-rejected",
                    mbedtls_ct_memcmp(received_tag, last, TAG_BYTES) != 0);
}

static int memcmp_run(void) {
  /* The verdict is public (the caller acts on it); how it was reached is not. */
  tag_verdict = (int)fathom_ct_public_value(
      (uint32_t)mbedtls_ct_memcmp(received_tag, expected_tag, TAG_BYTES));
  return 0;
}

static const fathom_op op_ct_mbedtls_memcmp = {
    .name = "ct_mbedtls_memcmp",
    .setup = memcmp_setup,
    .kat = memcmp_kat,
    .run = memcmp_run,
    .secret = memcmp_secret,
};
FATHOM_REGISTER_OP(op_ct_mbedtls_memcmp);

/* ---- mbedtls_mpi_inv_mod modulo the P-256 group order */

/* SEC 2 / FIPS 186-4 D.1.2.3: the order n of P-256's base point. */
static const uint8_t p256_n[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};

static mbedtls_mpi inv_a, inv_n, inv_x;

static int inv_secret(uint32_t variant) {
  uint8_t a[32];
  uint64_t x = 0x243F6A8885A308D3ull ^ ((uint64_t)variant * 0x9E3779B97F4A7C15ull);
  for (size_t i = 0; i < sizeof a; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    a[i] = (uint8_t)(x >> 32);
  }
  a[0] &= 0x7Fu; /* below n */
  a[31] |= 1u;   /* never 0 */
  fathom_ct_secret(a, sizeof a);
  return mbedtls_mpi_read_binary(&inv_a, a, sizeof a) != 0;
}

static int inv_setup(void) {
  mbedtls_mpi_init(&inv_a);
  mbedtls_mpi_init(&inv_n);
  mbedtls_mpi_init(&inv_x);
  if (mbedtls_mpi_read_binary(&inv_n, p256_n, sizeof p256_n) != 0) return 1;
  /* The result's limbs, allocated once, so no run grows them. */
  if (mbedtls_mpi_grow(&inv_x, inv_n.MBEDTLS_PRIVATE(n)) != 0) return 1;
  return inv_secret(0);
}

static void inv_kat(void) {
  /* 2^-1 mod n = (n + 1) / 2, and a * a^-1 = 1 mod n for the variant-0 secret. */
  mbedtls_mpi two, half, check;
  mbedtls_mpi_init(&two);
  mbedtls_mpi_init(&half);
  mbedtls_mpi_init(&check);
  int ok = mbedtls_mpi_lset(&two, 2) == 0 && mbedtls_mpi_inv_mod(&inv_x, &two, &inv_n) == 0 &&
           mbedtls_mpi_add_int(&half, &inv_n, 1) == 0 && mbedtls_mpi_shift_r(&half, 1) == 0 &&
           mbedtls_mpi_cmp_mpi(&inv_x, &half) == 0;
  fathom_kat_expect("inverse-of-2-is-(n+1)/2", ok);
  ok = mbedtls_mpi_inv_mod(&inv_x, &inv_a, &inv_n) == 0 &&
       mbedtls_mpi_mul_mpi(&check, &inv_x, &inv_a) == 0 &&
       mbedtls_mpi_mod_mpi(&check, &check, &inv_n) == 0 && mbedtls_mpi_cmp_int(&check, 1) == 0;
  fathom_kat_expect("a-times-inverse-is-1", ok);
  mbedtls_mpi_free(&two);
  mbedtls_mpi_free(&half);
  mbedtls_mpi_free(&check);
}

static int inv_run(void) { return mbedtls_mpi_inv_mod(&inv_x, &inv_a, &inv_n) != 0; }

static void inv_teardown(void) {
  mbedtls_mpi_free(&inv_a);
  mbedtls_mpi_free(&inv_n);
  mbedtls_mpi_free(&inv_x);
}

static const fathom_op op_ct_mbedtls_inv_mod = {
    .name = "ct_mbedtls_inv_mod",
    .setup = inv_setup,
    .kat = inv_kat,
    .run = inv_run,
    .teardown = inv_teardown,
    .secret = inv_secret,
};
FATHOM_REGISTER_OP(op_ct_mbedtls_inv_mod);

#endif /* FATHOM_CT_FIXTURES */
