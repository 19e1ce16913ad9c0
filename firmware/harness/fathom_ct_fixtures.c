/* Constant-time fixtures for `fathom ct` (docs/CT.md): small operations whose timing is known to
 * depend on a secret, and one that is known not to, so that the check can be validated on known
 * verdicts. Compiled only into an image whose configuration defines FATHOM_CT_FIXTURES
 * (tests/e2e/suites/ct.toml); a plain image has none of them.
 *
 * Each operation has a `secret` hook: variant v of its secret, the public inputs unchanged.
 *  - ct_tag_compare_early_exit: a MAC check that returns at the first differing byte (a received
 *    tag, public, against the expected tag, secret): variant v's tag agrees with the received one
 *    in its first v mod 17 bytes, so the time tells how many leading bytes an attacker guessed.
 *  - ct_tag_compare_constant: the same check accumulating the XOR of every byte: constant.
 *  - ct_secret_branch: square-and-multiply over a 32-bit secret exponent, multiplying only where
 *    a bit is set (a branch on every secret bit).
 *  - ct_secret_divide: a secret divided by a public divisor the compiler cannot see (UDIV on the
 *    M3/M4/M33, whose time depends on the operands; __aeabi_uidiv on the M0+).
 *  - ct_secret_compress: a secret coefficient compressed to 4 bits as ML-KEM's reference code did
 *    before the KyberSlash fix, ((x << 4) + q/2) / q with the constant q = 3329: what the
 *    binary does depends on the flags. At -O2 GCC multiplies by the reciprocal on the
 *    M3/M4/M33 (UMULL: constant on the M4 and M33); at -Os it emits UDIV (a leak); the M0+ has
 *    neither a divider nor UMULL, and calls __aeabi_uidiv at either level (a leak). */
#ifdef FATHOM_CT_FIXTURES

#include <stddef.h>
#include <stdint.h>

#include "fathom_harness.h"

#define TAG_BYTES 16

/* A variant's 32 bits, spread so that neighbouring variants differ in many bits (public). */
static uint32_t spread(uint32_t v) {
  uint32_t x = v * 0x9E3779B9u + 0x7F4A7C15u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}

/* ---- tag comparison: the received tag is public, the expected tag secret */

static const uint8_t received_tag[TAG_BYTES] = {0x4d, 0x61, 0x63, 0x20, 0x74, 0x61, 0x67, 0x20,
                                                0x72, 0x65, 0x63, 0x65, 0x69, 0x76, 0x65, 0x64};
static uint8_t expected_tag[TAG_BYTES];
static volatile int tag_verdict;

static int tag_secret(uint32_t variant) {
  const uint32_t agree = variant % (TAG_BYTES + 1);
  for (uint32_t i = 0; i < TAG_BYTES; ++i)
    expected_tag[i] = i < agree ? received_tag[i] : (uint8_t)(received_tag[i] ^ (1u + (i & 7u)));
  fathom_ct_secret(expected_tag, sizeof expected_tag);
  return 0;
}

static int tag_setup(void) { return tag_secret(0); }

/* 0 if the tags are equal. Leaks the position of the first difference. */
static int __attribute__((noinline)) compare_early_exit(const uint8_t *a, const uint8_t *b,
                                                        size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return 1;
  return 0;
}

/* 0 if the tags are equal. Touches every byte whatever they hold. */
static int __attribute__((noinline)) compare_constant(const uint8_t *a, const uint8_t *b,
                                                      size_t n) {
  uint8_t diff = 0;
  for (size_t i = 0; i < n; ++i) diff |= (uint8_t)(a[i] ^ b[i]);
  /* The verdict is public (the caller acts on it); how it was reached is not. */
  return (int)fathom_ct_public_value((1u & ((uint32_t)(diff - 1u) >> 8)) ^ 1u);
}

static void tag_kat(int (*compare)(const uint8_t *, const uint8_t *, size_t)) {
  uint8_t same[TAG_BYTES], last[TAG_BYTES];
  for (size_t i = 0; i < TAG_BYTES; ++i) same[i] = last[i] = received_tag[i];
  last[TAG_BYTES - 1] ^= 0x80u;
  fathom_kat_expect("equal-tags-accepted", compare(received_tag, same, TAG_BYTES) == 0);
  fathom_kat_expect("last-byte-differs-rejected", compare(received_tag, last, TAG_BYTES) != 0);
  fathom_kat_expect("first-byte-differs-rejected",
                    tag_secret(0) == 0 && compare(received_tag, expected_tag, TAG_BYTES) != 0);
}

static void early_exit_kat(void) { tag_kat(compare_early_exit); }
static void constant_kat(void) { tag_kat(compare_constant); }

static int early_exit_run(void) {
  tag_verdict = compare_early_exit(received_tag, expected_tag, TAG_BYTES);
  return 0;
}

static int constant_run(void) {
  tag_verdict = compare_constant(received_tag, expected_tag, TAG_BYTES);
  return 0;
}

static const fathom_op op_ct_tag_compare_early_exit = {
    .name = "ct_tag_compare_early_exit",
    .setup = tag_setup,
    .kat = early_exit_kat,
    .run = early_exit_run,
    .secret = tag_secret,
};
FATHOM_REGISTER_OP(op_ct_tag_compare_early_exit);

static const fathom_op op_ct_tag_compare_constant = {
    .name = "ct_tag_compare_constant",
    .setup = tag_setup,
    .kat = constant_kat,
    .run = constant_run,
    .secret = tag_secret,
};
FATHOM_REGISTER_OP(op_ct_tag_compare_constant);

/* ---- a branch on every bit of a secret exponent (public base and modulus) */

static uint32_t secret_exponent;
static volatile uint32_t power_result;

static int exponent_secret(uint32_t variant) {
  secret_exponent = spread(variant);
  fathom_ct_secret(&secret_exponent, sizeof secret_exponent);
  return 0;
}

static int exponent_setup(void) { return exponent_secret(0); }

/* base^e mod m, left to right, multiplying only where e has a 1 bit. */
static uint32_t __attribute__((noinline)) power_mod(uint32_t base, uint32_t e, uint32_t m) {
  uint64_t r = 1;
  for (int bit = 31; bit >= 0; --bit) {
    r = (r * r) % m;
    if ((e >> bit) & 1u) r = (r * base) % m;
  }
  return (uint32_t)r;
}

static void exponent_kat(void) {
  /* 3^4 = 81, 2^10 = 1024 mod 1000 = 24, 7^0 = 1, and Fermat: 5^(65537-1) = 1 mod 65537. */
  fathom_kat_expect("3^4", power_mod(3, 4, 1000003u) == 81u);
  fathom_kat_expect("2^10-mod-1000", power_mod(2, 10, 1000u) == 24u);
  fathom_kat_expect("7^0", power_mod(7, 0, 1000003u) == 1u);
  fathom_kat_expect("fermat-65537", power_mod(5, 65536u, 65537u) == 1u);
}

static int exponent_run(void) {
  power_result = power_mod(0x1234567u, secret_exponent, 0xFFFFFFFBu);
  return 0;
}

static const fathom_op op_ct_secret_branch = {
    .name = "ct_secret_branch",
    .setup = exponent_setup,
    .kat = exponent_kat,
    .run = exponent_run,
    .secret = exponent_secret,
};
FATHOM_REGISTER_OP(op_ct_secret_branch);

/* ---- a secret divided by a public divisor */

static uint32_t secret_dividend;
static volatile uint32_t public_divisor = 10u;
static volatile uint32_t quotient;

static int dividend_secret(uint32_t variant) {
  /* Dividends of every magnitude: the divider's early termination depends on it. */
  secret_dividend = spread(variant) >> (variant % 32u);
  fathom_ct_secret(&secret_dividend, sizeof secret_dividend);
  return 0;
}

static int dividend_setup(void) { return dividend_secret(0); }

static uint32_t __attribute__((noinline)) divide(uint32_t n, uint32_t d) { return n / d; }

static void divide_kat(void) {
  fathom_kat_expect("1234567/10", divide(1234567u, 10u) == 123456u);
  fathom_kat_expect("max/10", divide(0xFFFFFFFFu, 10u) == 429496729u);
  fathom_kat_expect("9/10", divide(9u, 10u) == 0u);
}

static int divide_run(void) {
  quotient = divide(secret_dividend, public_divisor);
  return 0;
}

static const fathom_op op_ct_secret_divide = {
    .name = "ct_secret_divide",
    .setup = dividend_setup,
    .kat = divide_kat,
    .run = divide_run,
    .secret = dividend_secret,
};
FATHOM_REGISTER_OP(op_ct_secret_divide);

/* ---- a secret compressed by a division by the constant q (KyberSlash's pattern) */

#define MLKEM_Q 3329u

static uint32_t secret_coefficient;
static volatile uint32_t compressed;

static int coefficient_secret(uint32_t variant) {
  secret_coefficient = spread(variant) % MLKEM_Q;
  fathom_ct_secret(&secret_coefficient, sizeof secret_coefficient);
  return 0;
}

static int coefficient_setup(void) { return coefficient_secret(0); }

/* FIPS 203 Compress_4(x) = round(16 x / q) mod 16, as the pre-fix reference code computed it. */
static uint32_t __attribute__((noinline)) compress4(uint32_t x) {
  return (((x << 4) + MLKEM_Q / 2) / MLKEM_Q) & 15u;
}

static void compress_kat(void) {
  fathom_kat_expect("compress4(0)", compress4(0) == 0);
  fathom_kat_expect("compress4(208)", compress4(208) == 1);     /* 16*208/q = 0.9997 */
  fathom_kat_expect("compress4(1664)", compress4(1664) == 8);   /* 7.9976 */
  fathom_kat_expect("compress4(3328)", compress4(3328) == 0);   /* 15.995 -> 16 mod 16 */
}

static int compress_run(void) {
  compressed = compress4(secret_coefficient);
  return 0;
}

static const fathom_op op_ct_secret_compress = {
    .name = "ct_secret_compress",
    .setup = coefficient_setup,
    .kat = compress_kat,
    .run = compress_run,
    .secret = coefficient_secret,
};
FATHOM_REGISTER_OP(op_ct_secret_compress);

#endif /* FATHOM_CT_FIXTURES */
