// Micro-kernels on the Cortex-M3 model: the M4 rules with the M3 multiplier
// (src/sim/timing/cortex_m3_model.cpp, timing_rules.h), each count derived by hand.
#include "sim/timing/cortex_m3_model.h"

#include <gtest/gtest.h>

#include "timing_test_support.h"

namespace fathom::sim::timing {
namespace {

using namespace testing;  // NOLINT: test helpers
const char* const kM3 = "cortex-m3";

uint64_t long_multiply(const std::vector<uint16_t>& encoding, uint32_t rn, uint32_t rm) {
  return cycles(kM3, {{kCode, encoding, rn, rm}});
}

TEST(CortexM3Model, MultiplyAccumulateTakesTwo) {
  EXPECT_EQ(cycles(kM3, straight(kCode, {enc::kMulW})), 1u);
  EXPECT_EQ(cycles(kM3, straight(kCode, {enc::kMla1})), 2u);
}

TEST(CortexM3Model, LongMultiplyTerminatesEarlyOnShortOperands) {
  // UMULL: 3 + [bits(Rm) > 16] + [bits(Rm) > 24].
  EXPECT_EQ(long_multiply(enc::kUmull, 0xFFFFFFFFu, 0xFF), 3u);        // 8 bits
  EXPECT_EQ(long_multiply(enc::kUmull, 0xFFFFFFFFu, 0x12345), 4u);     // 17 bits
  EXPECT_EQ(long_multiply(enc::kUmull, 0xFFFFFFFFu, 0x01000000), 5u);  // 25 bits
  // SMULL on magnitudes: -1 has 1 bit; INT32_MIN 32.
  EXPECT_EQ(long_multiply(enc::kSmull, 5, 0xFFFFFFFFu), 3u);
  EXPECT_EQ(long_multiply(enc::kSmull, 5, 0x80000000u), 5u);
}

TEST(CortexM3Model, LongMultiplyAccumulateTakesFourToSeven) {
  // UMLAL: 4 + [bits > 8] + [bits > 16] + [bits > 24].
  EXPECT_EQ(long_multiply(enc::kUmlal, 1, 0), 4u);
  EXPECT_EQ(long_multiply(enc::kUmlal, 1, 0x100), 5u);         // 9 bits
  EXPECT_EQ(long_multiply(enc::kUmlal, 1, 0x10000), 6u);       // 17 bits
  EXPECT_EQ(long_multiply(enc::kUmlal, 1, 0xFFFFFFFFu), 7u);   // 32 bits
  EXPECT_EQ(long_multiply(enc::kSmlal, 1, 0xFFFFFF00u), 5u);   // -256: 9 bits
}

TEST(CortexM3Model, SharesTheM4LoadStoreRules) {
  // Pipelined loads 2 + 1 + 1 = 4; store then load 1 + 3 = 4; dependent loads 2 + 2 = 4.
  EXPECT_EQ(cycles(kM3, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R3, enc::kLdrR4R5})), 4u);
  EXPECT_EQ(cycles(kM3, straight(kCode, {enc::kStrR0R1, enc::kLdrR2R3})), 4u);
  EXPECT_EQ(cycles(kM3, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R0})), 4u);
  // Divide as the M4: 100 / 10 = 3.
  EXPECT_EQ(cycles(kM3, {{kCode, enc::kUdiv, 100, 10}}), 3u);
}

TEST(CortexM3Model, NameShowsTheMemorySystem) {
  EXPECT_EQ(model_for(board(kM3))->name(),
            "cortex-m3/2 ws=0 prefetch=on icache=off refinements=off");
}

TEST(CortexM3Model, OnlyTheFirstLoadOfAChainMayBeIndexed) {
  // Measured (M3): "pre/post-indexed loads cannot be chained at all; only the first load of a
  // chain may be pre/post-indexed". ldr.w r0,[r1],#4 2; ldr.w r2,[r3],#4 (another base, which
  // the M4 would pipeline) 2 = 4.
  const std::vector<uint16_t> post_r0_r1 = {0xF851, 0x0B04};  // ldr.w r0, [r1], #4
  const std::vector<uint16_t> post_r2_r3 = {0xF853, 0x2B04};  // ldr.w r2, [r3], #4
  EXPECT_EQ(cycles(kM3, straight(kCode, {post_r0_r1, post_r2_r3})), 4u);
  // ldr.w r0,[r1],#4 2; ldr r2,[r3] (not indexed) pipelined 1 = 3.
  EXPECT_EQ(cycles(kM3, straight(kCode, {post_r0_r1, enc::kLdrR2R3})), 3u);
}

}  // namespace
}  // namespace fathom::sim::timing
