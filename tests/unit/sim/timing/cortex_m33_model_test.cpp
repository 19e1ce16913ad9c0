// Micro-kernels on the Cortex-M33 model: the measured M33 facts (src/sim/timing/
// cortex_m33_model.cpp, docs/TIMING.md), each count derived by hand.
#include "sim/timing/cortex_m33_model.h"

#include <gtest/gtest.h>

#include "timing_test_support.h"

namespace fathom::sim::timing {
namespace {

using namespace testing;  // NOLINT: test helpers
const char* const kM33 = "cortex-m33";

TEST(CortexM33Model, LoadToUseLatencyIsTwo) {
  // ldr r0,[r1] 1; adds r2,r0,#1 uses r0 at once: 1 stall + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kAddsR2R0})), 3u);
  // ldr r0,[r1] 1; adds r2,r3,#1 independent 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kAddsR2R3})), 2u);
}

TEST(CortexM33Model, LoadToStoreDataLatencyIsOne) {
  // ldr r0,[r1] 1; str r0,[r2] stores the loaded value without waiting 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kStrR0R2})), 2u);
  // ldr r0,[r1] 1; str r2,[r0] needs it as the address: 1 stall + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kStrR2R0})), 3u);
}

TEST(CortexM33Model, IndependentLoadsIssueEveryCycle) {
  // Three single loads, 1 each = 3; a dependent pair 1 + (1 + 1) = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R3, enc::kLdrR4R5})), 3u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R0})), 3u);
}

TEST(CortexM33Model, DoubleAndMultipleTransfers) {
  // LDRD/STRD 2; LDM/STM of x registers x; POP {r4, pc} 2 + 3 refill, then nop 1.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrd})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kStrd})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdmia4})), 4u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kPushR4Lr})), 2u);
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kPopR4Pc}, {0x2000, enc::kNop}}), 6u);
}

TEST(CortexM33Model, SixteenBitMulsTakesTwo) {
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMuls})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMulW})), 1u);
}

TEST(CortexM33Model, MultiplyResultLatencyAndAccumulatorChains) {
  // mul.w r0,r1,r2 1; adds r2,r0,#1 waits 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMulW, enc::kAddsR2R0})), 3u);
  // mla r0,r1,r2,r0 1; mla r0,r3,r4,r0 takes r0 as its accumulator without waiting 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMla1, enc::kMla2})), 2u);
  // mla r0,... 1; muls r0,r1,r0 needs r0 as a multiplicand: 1 stall + 2 = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMla1, enc::kMuls})), 4u);
}

TEST(CortexM33Model, ShiftedOperandResultLatencyIsTwo) {
  // add.w r0,r1,r2,lsl #2 1; adds r2,r0,#1 waits 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddWShift, enc::kAddsR2R0})), 3u);
  // add.w r0,r0,#1 (no shift) 1; adds r2,r0,#1 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddW, enc::kAddsR2R0})), 2u);
}

TEST(CortexM33Model, IndependentSixteenBitPairsDualIssue) {
  // mov r1,r2 at a word address 1; adds r2,r3,#1 in the same word, independent: 0 = 1.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kAddsR2R3})), 1u);
  // Two pairs back to back: 1 + 0 + 1 + 0 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kAddsR2R3, enc::kMovR1R2,
                                          enc::kAddsR2R3})),
            2u);
}

TEST(CortexM33Model, PairsNeedIndependenceFlagsAndOneFetchWord) {
  // mov r1,r2; mov r3,r1 reads the first's result: 1 + 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kMovR3R1})), 2u);
  // adds r1,#1; adds r2,r3,#1: both set the flags: 1 + 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddsR1One, enc::kAddsR2R3})), 2u);
  // nop; mov r1,r2 at a halfword address; adds r2,r3,#1 in the next word: 1 + 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kNop, enc::kMovR1R2, enc::kAddsR2R3})), 3u);
}

TEST(CortexM33Model, BranchesPairAfterANonFlagSettingInstruction) {
  // mov r1,r2 1; bne.n not taken, paired 0; nop 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kBneN, enc::kNop})), 2u);
  // mov r1,r2 1; bne.n taken, paired: 1 + P 1 - 1 = 1; nop 1 = 3.
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kMovR1R2}, {kCode + 2, enc::kBneN},
                          {kCode + 8, enc::kNop}}),
            3u);
  // cmp r0,#0 sets the flags: bne.n not taken 1 -> 1 + 1 + 1 = 3; taken 1 + 2 -> 4 + nop = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kCmpR0Imm, enc::kBneN, enc::kNop})), 3u);
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kCmpR0Imm}, {kCode + 2, enc::kBneN},
                          {kCode + 8, enc::kNop}}),
            4u);
}

TEST(CortexM33Model, FusedMacBlocksTheFpuForTwoCycles) {
  // vmla 1; vadd waits 2 + 1 = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kVmla, enc::kVadd})), 4u);
  // vmla 1; add.w 1; add.w 1 (the block runs out); vadd 1 = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kVmla, enc::kAddW, enc::kAddW, enc::kVadd})), 4u);
  // VLDR.32 1; VLDR.64 2; VDIV 14.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kVldrS})), 1u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kVldrD})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kVdiv})), 14u);
}

TEST(CortexM33Model, DivideFromOperands) {
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kUdiv, 5, 10}}), 2u);
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kUdiv, 0xFFFFFFFFu, 1}}), 12u);
}

TEST(CortexM33Model, NameShowsTheMemorySystem) {
  EXPECT_EQ(model_for(board(kM33))->name(), "cortex-m33/1 ws=0 prefetch=on icache=off");
}

}  // namespace
}  // namespace fathom::sim::timing
