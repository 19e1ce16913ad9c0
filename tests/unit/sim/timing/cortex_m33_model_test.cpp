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

// Encodings of the M33 rule tests (arm-none-eabi-as -march=armv8-m.main+dsp -mthumb).
const std::vector<uint16_t> kSubsR7One = {0x3F01};           // subs r7, #1
const std::vector<uint16_t> kLdmia4R6 = {0xCE0F};            // ldmia r6!, {r0, r1, r2, r3}
const std::vector<uint16_t> kUxtbRor = {0xFA5F, 0xF091};     // uxtb.w r0, r1, ror #8
const std::vector<uint16_t> kUxtab = {0xFA52, 0xF081};       // uxtab r0, r2, r1
const std::vector<uint16_t> kUxtabAcc = {0xFA50, 0xF083};    // uxtab r0, r0, r3
const std::vector<uint16_t> kUxtabR4R5R0 = {0xFA55, 0xF480}; // uxtab r4, r5, r0
const std::vector<uint16_t> kEorShiftedConst = {0xF481, 0x50FE};  // eor.w r0, r1, #0x1fc0
const std::vector<uint16_t> kEorByte = {0xF081, 0x00FF};          // eor.w r0, r1, #0xff
const std::vector<uint16_t> kEorReplicated = {0xF081, 0x10FF};    // eor.w r0, r1, #0x00ff00ff
const std::vector<uint16_t> kAddw = {0xF601, 0x70FF};             // addw r0, r1, #0xfff
const std::vector<uint16_t> kAndsShiftedConst = {0xF411, 0x50FE}; // ands.w r0, r1, #0x1fc0
const std::vector<uint16_t> kAndsByte = {0xF011, 0x00FF};         // ands.w r0, r1, #0xff
const std::vector<uint16_t> kMovsWShiftedConst = {0xF45F, 0x50FE};  // movs.w r0, #0x1fc0
const std::vector<uint16_t> kAddsWShift = {0xEB11, 0x0082};   // adds.w r0, r1, r2, lsl #2
const std::vector<uint16_t> kCmpWShift = {0xEBB0, 0x0F81};    // cmp.w r0, r1, lsl #2
const std::vector<uint16_t> kAddWRor = {0xEB04, 0x6335};      // add.w r3, r4, r5, ror #24
const std::vector<uint16_t> kAddWR0R4Shift = {0xEB00, 0x0084};  // add.w r0, r0, r4, lsl #2
const std::vector<uint16_t> kMlaR4 = {0xFB01, 0x0402};        // mla r4, r1, r2, r0
const std::vector<uint16_t> kStrR0R3 = {0x6018};              // str r0, [r3]
const std::vector<uint16_t> kStrR4R3 = {0x601C};              // str r4, [r3]

TEST(CortexM33Model, ArithmeticAndLoadStoreNeverPairWithArithmetic) {
  // Measured: "arithmetic + arithmetic does NOT pair; load/store + arithmetic does NOT pair".
  // mov r1,r2 at a word address 1; adds r2,r3,#1 independent, same fetch word: 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kAddsR2R3})), 2u);
  // ldr r0,[r1] 1; adds r2,r3,#1 1 = 2; adds r2,r3,#1 1; ldr r0,[r1] 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kAddsR2R3})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddsR2R3, enc::kLdrR0R1})), 2u);
}

TEST(CortexM33Model, NopPairsWithArithmeticOrLoadStore) {
  // Measured: "a NOP can pair with an arithmetic or a load/store instruction".
  // nop 1; adds r2,r3,#1 paired 0 = 1.  nop 1; ldr r0,[r1] paired 0 = 1.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kNop, enc::kAddsR2R3})), 1u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kNop, enc::kLdrR0R1})), 1u);
  // mov r1,r2 1; nop paired 0 = 1.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kNop})), 1u);
  // Two NOPs are not such a pair: 1 + 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kNop, enc::kNop})), 2u);
  // "The pair need not be word-aligned": nop 1; nop (halfword address) 1; adds r2,r3,#1 in
  // the next word pairs with the second nop 0 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kNop, enc::kNop, enc::kAddsR2R3})), 2u);
  // "... but the second must already be fetched": a nop reached by a branch at a halfword
  // address holds only its own word; adds in the next word does not pair: 1 + 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode + 2, {enc::kNop, enc::kAddsR2R3})), 2u);
  // A NOP paired with a load lets no cycle pass: ldr r0,[r1] 1; nop 0; adds r2,r0,#1 still
  // waits for r0 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kNop, enc::kAddsR2R0})), 3u);
}

TEST(CortexM33Model, NotTakenBranchPairsEvenAfterFlagSetting) {
  // Measured: "subs r7,#1; bne costs 1 + 0 when not taken, 1 + 2 when taken".
  // subs 1; bne not taken 0; nop (after a branch: no pair) 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kSubsR7One, enc::kBneN, enc::kNop})), 2u);
  // subs 1; bne taken 1 + P 1 = 2; nop at the target 1 = 4.
  EXPECT_EQ(cycles(kM33, {{kCode, kSubsR7One}, {kCode + 2, enc::kBneN}, {kCode + 8, enc::kNop}}),
            4u);
}

TEST(CortexM33Model, TakenBranchAfterNonFlagSettingSixteenBitCostsOne) {
  // Measured: "a taken 16-bit branch pairs when the instruction before it is a 16-bit
  // instruction that does not set flags: it then costs effectively 1 cycle".
  // ldr r0,[r1] 1; mov r1,r2 (halfword address, fetched in sequence) 1; bne taken 1; nop at
  // the target 1 = 4.
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kLdrR0R1}, {kCode + 2, enc::kMovR1R2},
                          {kCode + 4, enc::kBneN}, {kCode + 10, enc::kNop}}),
            4u);
  // Measured: "ldmia r6!, {r0-r3}; bne = 4 + 1 taken"; nop at the target 1 = 6.
  EXPECT_EQ(cycles(kM33, {{kCode, kLdmia4R6}, {kCode + 2, enc::kBneN}, {kCode + 8, enc::kNop}}),
            6u);
  // After a 32-bit instruction there is no pair: add.w 1; bne taken 1 + 1; nop 1 = 4.
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kAddW}, {kCode + 4, enc::kBneN}, {kCode + 10, enc::kNop}}),
            4u);
}

TEST(CortexM33Model, ItPairsWithThePrecedingInstruction) {
  // Measured: "IT pairs with the preceding instruction, wherever the flags came from".
  // cmp r0,#0 1; it eq 0; moveq r0,r1 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kCmpR0Imm, enc::kItEq, enc::kMoveqR0R1})), 2u);
  // Flags from a shifted-register operand 2 are late, but IT does not wait for them; IT
  // after a 32-bit instruction does not pair: cmp.w r0,r1,lsl #2 1; it eq 1; moveq 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kCmpWShift, enc::kItEq, enc::kMoveqR0R1})), 3u);
}

TEST(CortexM33Model, PlainExtendWithRotationIsSingleStage) {
  // Measured: plain extends "with or without a rotation: single stage, result usable by the
  // next instruction". uxtb.w r0,r1,ror #8 1; adds r2,r0,#1 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kUxtbRor, enc::kAddsR2R0})), 2u);
}

TEST(CortexM33Model, ShiftedConstantOperandHasTwoCycleLatency) {
  // Measured: operand 2 with a shifted constant ("eor r0, r1, #0x1fc0") has 2-cycle result
  // latency: eor.w 1; adds r2,r0,#1 waits 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kEorShiftedConst, enc::kAddsR2R0})), 3u);
  // "Simple 8/12-bit constants and replicated-byte patterns are not shifted constants":
  // eor.w #0xff, eor.w #0x00ff00ff and addw #0xfff, then adds r2,r0,#1: 1 + 1 = 2 each.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kEorByte, enc::kAddsR2R0})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kEorReplicated, enc::kAddsR2R0})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAddw, enc::kAddsR2R0})), 2u);
}

TEST(CortexM33Model, ExtendAndAddHasTwoCycleLatencyAndChainsItsAccumulateInput) {
  // Measured: extend-and-add 2-cycle result latency: uxtab r0,r2,r1 1; adds r2,r0,#1 waits
  // 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kUxtab, enc::kAddsR2R0})), 3u);
  // "The accumulate input can be chained like a MAC": uxtab r0,r2,r1 1; uxtab r0,r0,r3 takes
  // r0 as its accumulate input 1 = 2.  As the extended operand it waits: uxtab r4,r5,r0
  // 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kUxtab, kUxtabAcc})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kUxtab, kUxtabR4R5R0})), 3u);
  // A loaded value is not chained into it ("not an extend-and-add"): ldr r0,[r1] 1;
  // uxtab r0,r0,r3 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, kUxtabAcc})), 3u);
}

TEST(CortexM33Model, MacAccumulatorChainsFromAccumulateStageResults) {
  // Measured: "the accumulator can come from the previous MAC, an extend-and-add or a
  // shifted-operand2 instruction without a stall". add.w r0,r1,r2,lsl #2 1; mla r0,r3,r4,r0
  // 1 = 2.  uxtab r0,r2,r1 1; mla r0,r3,r4,r0 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddWShift, enc::kMla2})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kUxtab, enc::kMla2})), 2u);
  // Shifted-operand-2 results "cannot be chained like multiply-accumulates":
  // add.w r0,r1,r2,lsl #2 1; add.w r0,r0,r4,lsl #2 waits 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddWShift, kAddWR0R4Shift})), 3u);
}

TEST(CortexM33Model, LoadFeedsAMacAccumulatorAfterOneCycle) {
  // Measured: "a loaded value can feed a MAC's accumulate input after 1 cycle (not an
  // extend-and-add or shifted-operand2 instruction)". ldr r0,[r1] 1; mla r0,r3,r4,r0 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR0R1, enc::kMla2})), 2u);
  // As a multiplicand it waits: ldr r4,[r5] 1; mla r0,r3,r4,r0 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR4R5, enc::kMla2})), 3u);
  // Into a shifted operand 2: ldr r4,[r5] 1; add.w r0,r0,r4,lsl #2 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kLdrR4R5, kAddWR0R4Shift})), 3u);
}

TEST(CortexM33Model, StoreTakesAnAccumulateStageResultAfterOneCycle) {
  // Measured: "a store can store a result from the accumulate stage after 1 cycle".
  // mla r4,r1,r2,r0 1; str r4,[r3] 1 = 2.  add.w r0,r1,r2,lsl #2 1; str r0,[r3] 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kMlaR4, kStrR4R3})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddWShift, kStrR0R3})), 2u);
  // As the address it waits: add.w r3,r4,r5,ror #24 1; str r0,[r3] 1 + 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAddWRor, kStrR0R3})), 3u);
}

TEST(CortexM33Model, FlagsOfShiftedRegisterOperandTwoAreLate) {
  // Measured: "flags from a shifted-register operand2 instruction are available one cycle
  // later than normal". adds.w r0,r1,r2,lsl #2 1; bne not taken waits 1 + 1 (after a
  // 32-bit instruction: no pair); nop 1 = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAddsWShift, enc::kBneN, enc::kNop})), 4u);
  // cmp.w r0,r1 (no shift) 1; bne 1; nop 1 = 3.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kCmpWR0R1, enc::kBneN, enc::kNop})), 3u);
}

TEST(CortexM33Model, TwoStageFlagSettingFormsTakeTwo) {
  // Measured: "MULS (16-bit) and operand2-shifted-constant forms that set flags" take 2;
  // "inline shifted-register forms and MOVS.W are not affected".
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAndsShiftedConst})), 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAndsByte})), 1u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kMovsWShiftedConst})), 1u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAddsWShift})), 1u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMuls})), 2u);
  // Assumption: having spanned both stages, the result is ready: ands.w 2; adds r2,r0,#1 1.
  EXPECT_EQ(cycles(kM33, straight(kCode, {kAndsShiftedConst, enc::kAddsR2R0})), 3u);
}

TEST(CortexM33Model, PredicatedOutInstructionsAreChargedAsNops) {
  // Measured: "an instruction predicated out inside an IT block behaves as a NOP: it
  // allocates no stages and causes no hazard". The machine asks the model
  // (skipped_behaves_as_nop) whether to charge a failed instruction as a NOP of its size.
  EXPECT_TRUE(model_for(board(kM33))->skipped_behaves_as_nop());
  EXPECT_FALSE(model_for(board("cortex-m4"))->skipped_behaves_as_nop());
  // What that NOP costs: a skipped add.w r0,r1,r2,lsl #2 leaves no late result, so
  // adds r2,r0,#1 after it does not wait: 1 + 1 = 2 (executed: 1 + 1 + 1 = 3).
  Instruction skipped;
  skipped.size_bytes = 4;
  skipped.valid = true;
  auto m = model_for(board(kM33));
  const Instruction adds = decode({kCode + 4, enc::kAddsR2R0, 0, 0});
  uint64_t total = m->cycles(skipped, kCode, kCode + 4);
  total += m->cycles(adds, kCode + 4, kCode + 6);
  EXPECT_EQ(total, 2u);
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kAddWShift, enc::kAddsR2R0})), 3u);
}

TEST(CortexM33Model, BranchesPairAfterANonFlagSettingInstruction) {
  // mov r1,r2 1; bne.n not taken, paired 0; nop 1 = 2.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kMovR1R2, enc::kBneN, enc::kNop})), 2u);
  // mov r1,r2 1; bne.n taken, paired: effectively 1; nop 1 = 3.
  EXPECT_EQ(cycles(kM33, {{kCode, enc::kMovR1R2}, {kCode + 2, enc::kBneN},
                          {kCode + 8, enc::kNop}}),
            3u);
  // cmp r0,#0 sets the flags: bne.n not taken still pairs 0 -> 1 + 0 + 1 = 2; taken 1 + 2,
  // nop 1 = 4.
  EXPECT_EQ(cycles(kM33, straight(kCode, {enc::kCmpR0Imm, enc::kBneN, enc::kNop})), 2u);
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
  EXPECT_EQ(model_for(board(kM33))->name(), "cortex-m33/2 ws=0 prefetch=on icache=off");
}

}  // namespace
}  // namespace fathom::sim::timing
