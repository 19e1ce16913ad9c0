// Micro-kernels on the Cortex-M4 model, each with its expected count derived by hand from the
// rules (src/sim/timing/cortex_m4_model.cpp, timing_rules.h, docs/TIMING.md).
#include "sim/timing/cortex_m4_model.h"

#include <gtest/gtest.h>

#include "timing_test_support.h"

namespace fathom::sim::timing {
namespace {

using namespace testing;  // NOLINT: test helpers
const char* const kM4 = "cortex-m4";

TEST(CortexM4Model, IndependentLoadsPipeline) {
  // ldr r0,[r1] 2; ldr r2,[r3] 1 (pipelined); ldr r4,[r5] 1 (pipelined) = 4.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R3, enc::kLdrR4R5})), 4u);
}

TEST(CortexM4Model, DependentLoadDoesNotPipeline) {
  // ldr r0,[r1] 2; ldr r2,[r0] 2 (its address is the first load's result) = 4.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R0})), 4u);
}

TEST(CortexM4Model, StoreThenLoadCostsOneMore) {
  // str r0,[r1] 1 (immediate offset); ldr r2,[r3] 2 + 1 (store followed by load) = 4.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kStrR0R1, enc::kLdrR2R3})), 4u);
}

TEST(CortexM4Model, NothingPipelinesAfterRegisterOffsetStore) {
  // ldr r0,[r1] 2; str r2,[r3,r4] 1 (register offset 2, pipelined after the load);
  // ldr r5,[r6] 2 (no pipelining after it) + 1 (store then load) = 6.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kLdrR0R1, enc::kStrR2R3R4, enc::kLdrR5R6})), 6u);
  // Alone, a register-offset store takes 2.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kStrR2R3R4})), 2u);
}

TEST(CortexM4Model, AddressFromPrecedingAluResultStalls) {
  // adds r1,#4 1; ldr r0,[r1] 2 + 1 (address from the preceding ALU result) = 4.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kAddsR1Imm, enc::kLdrR0R1})), 4u);
  // adds r1,#4 1; ldr r2,[r3] 2 (independent) = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kAddsR1Imm, enc::kLdrR2R3})), 3u);
}

TEST(CortexM4Model, DoubleLoadsAndStoresDoNotPipeline) {
  // ldr r0,[r1] 2; ldrd r2,r3,[r4] 3 = 5; strd 3; ldr r0,[r1] 2 (no pipelining after STRD) = 5.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kLdrR0R1, enc::kLdrd})), 5u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kStrd, enc::kLdrR0R1})), 5u);
}

TEST(CortexM4Model, LoadMultipleIsOnePlusN) {
  // ldmia r0!, {r1-r4}: 1 + 4 = 5. push {r4, lr}: 1 + 2 = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kLdmia4})), 5u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kPushR4Lr})), 3u);
}

TEST(CortexM4Model, PopPcAddsTheRefill) {
  // pop {r4, pc}: 1 + 2 + P(loaded) 3 = 6; then nop at a word-aligned target 1 = 7.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kPopR4Pc}, {0x2000, enc::kNop}}), 7u);
  // ldr.w pc,[sp],#4: 1 + 1 + 3 = 5 (the reference: "2 for the load + 3 refill").
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kLdrPc}, {0x2000, enc::kNop}}), 6u);
}

TEST(CortexM4Model, PopPcSkippedByItCostsOneCycle) {
  // cmp r0,r1 1; it eq 0 (folded); pop {r4, pc} with its condition false: falls through, 1;
  // nop 1 = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kCmpR0R1, enc::kItEq, enc::kPopR4Pc, enc::kNop})),
            3u);
}

TEST(CortexM4Model, TakenBranchToAlignedTargets) {
  // b.n 1 + P(immediate) 1 = 2; nop (16-bit target) 1 = 3.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kBN}, {kCode + 8, enc::kNop}}), 3u);
  // b.n 2; add.w at a word-aligned address 1 = 3.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kBN}, {kCode + 8, enc::kAddW}}), 3u);
  // A 16-bit target at a halfword address needs no second fetch: 2 + 1 = 3.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kBN}, {kCode + 10, enc::kNop}}), 3u);
}

TEST(CortexM4Model, TakenBranchToUnalignedWideTargetCostsOneMore) {
  // b.n 2; add.w at a halfword address 1 + 1 (measured: unaligned 32-bit target) = 4.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kBN}, {kCode + 10, enc::kAddW}}), 4u);
}

TEST(CortexM4Model, NotTakenBranchIsOneCycle) {
  // cmp r0,#0 1; bne.n not taken 1; nop 1 = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kCmpR0Imm, enc::kBneN, enc::kNop})), 3u);
  // Taken: cmp 1; bne.n 1 + 1; nop 1 = 4.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kCmpR0Imm}, {kCode + 2, enc::kBneN},
                         {kCode + 8, enc::kNop}}),
            4u);
}

TEST(CortexM4Model, RegisterBranchesRefillLater) {
  // bl 1 + 1 = 2; bx lr 1 + P(register) 2 = 3; nop 1 = 6 in all.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kBl}, {0x2000, enc::kBxLr}, {kCode + 4, enc::kNop}}), 6u);
}

TEST(CortexM4Model, TableBranch) {
  // tbb [pc, r3]: 2 (load) + 1 (add) + 3 (refill) = 6; nop 1 = 7.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kTbb}, {kCode + 12, enc::kNop}}), 7u);
}

TEST(CortexM4Model, ItFoldsOntoAPreceding16BitInstruction) {
  // cmp r0,r1 1; it eq 0 (folded); moveq 1 = 2.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kCmpR0R1, enc::kItEq, enc::kMoveqR0R1})), 2u);
  // cmp.w r0,r1 1; it eq 1 (after a 32-bit instruction); moveq 1 = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kCmpWR0R1, enc::kItEq, enc::kMoveqR0R1})), 3u);
}

TEST(CortexM4Model, DivideCostsFollowTheQuotientLength) {
  auto udiv = [](uint32_t n, uint32_t d) {
    return cycles(kM4, {{kCode, enc::kUdiv, n, d}});
  };
  auto sdiv = [](int32_t n, int32_t d) {
    return cycles(kM4, {{kCode, enc::kSdiv, static_cast<uint32_t>(n), static_cast<uint32_t>(d)}});
  };
  EXPECT_EQ(udiv(5, 10), 2u);            // dividend < divisor: 2
  EXPECT_EQ(udiv(7, 0), 2u);             // division by zero (result 0): 2
  EXPECT_EQ(udiv(100, 10), 3u);          // bits 7 - 4 + 1 = q 4: 1 + ceil(4/3) = 3
  EXPECT_EQ(udiv(0x10000, 0x100), 4u);   // q = 17 - 9 + 1 = 9: 1 + ceil(9/3) = 4
  EXPECT_EQ(udiv(0xFFFFFFFFu, 1), 12u);  // q = 32: 1 + 11 = 12, the TRM maximum
  EXPECT_EQ(sdiv(-100, 10), 3u);         // magnitudes as UDIV 100 / 10
  EXPECT_EQ(sdiv(INT32_MIN, 1), 12u);    // |INT32_MIN| has 32 bits
}

TEST(CortexM4Model, MultipliesAreSingleCycle) {
  // umull, umlal, smull, umaal, mla: 1 each on the M4, whatever the operands.
  EXPECT_EQ(cycles(kM4, {{kCode, enc::kUmull, 0xFFFFFFFFu, 0xFFFFFFFFu}}), 1u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kUmlal, enc::kSmull, enc::kUmaal, enc::kMla1})),
            4u);
}

TEST(CortexM4Model, FpuTable) {
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVadd})), 1u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVmla})), 3u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVdiv})), 14u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVsqrt})), 14u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVldrS})), 2u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVldrD})), 3u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVstrS})), 2u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVmovToCore})), 2u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVmovToFp})), 2u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVmovImm})), 1u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVmrs})), 1u);
  EXPECT_EQ(cycles(kM4, straight(kCode, {enc::kVpushD8D9})), 5u);  // 1 + 2 doubles x 2
}

TEST(CortexM4Model, NameShowsTheMemorySystem) {
  EXPECT_EQ(model_for(board(kM4))->name(),
            "cortex-m4/2 ws=0 prefetch=on icache=off refinements=off");
}

// --- Measured refinements (shared/reference/cortex-m-timing.md "Measured refinements"). The
// fetch-related ones apply with the board's timing_refinements = true only.
model::Board refined(bool on) {
  model::Board b = board(kM4);
  b.timing_refinements = on;
  return b;
}
const std::vector<uint16_t> kLdrWR2R3 = {0xF8D3, 0x2000};      // ldr.w r2, [r3]
const std::vector<uint16_t> kLdrWR0R1 = {0xF8D1, 0x0000};      // ldr.w r0, [r1]
const std::vector<uint16_t> kLdrPostR0R1 = {0xF851, 0x0B04};   // ldr.w r0, [r1], #4
const std::vector<uint16_t> kLdrPostR2R1 = {0xF851, 0x2B04};   // ldr.w r2, [r1], #4
const std::vector<uint16_t> kLdrPostR2R3 = {0xF853, 0x2B04};   // ldr.w r2, [r3], #4

TEST(CortexM4Model, GroupOfThreeUnalignedWideInstructionsCostsOneMore) {
  // Measured: "groups of three or more unaligned 32-bit instructions take one extra cycle".
  // nop 1; add.w at +2, +6, +10 (all at halfword addresses) 1 + 1 + (1 + 1) = 5.
  const auto three = straight(kCode, {enc::kNop, enc::kAddW, enc::kAddW, enc::kAddW});
  EXPECT_EQ(cycles(refined(true), three), 5u);
  EXPECT_EQ(cycles(refined(false), three), 4u);
  // Two are not a group: nop 1; add.w 1; add.w 1 = 3.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kNop, enc::kAddW, enc::kAddW})), 3u);
  // Four are one group: 1 + 4 + 1 = 6.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kNop, enc::kAddW, enc::kAddW,
                                                   enc::kAddW, enc::kAddW})),
            6u);
  // Word-aligned ones never count: add.w at 0, 4, 8 = 3.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kAddW, enc::kAddW, enc::kAddW})), 3u);
}

TEST(CortexM4Model, UnalignedWideLoadDoesNotPipeline) {
  // Measured: "32-bit loads (LDR.W, LDRB.W) may fail to pipeline when they are not
  // word-aligned". ldr r0,[r1] 2; ldr.w r2,[r3] at a halfword address 2 (not 1) = 4.
  const auto unaligned = straight(kCode, {enc::kLdrR0R1, kLdrWR2R3});
  EXPECT_EQ(cycles(refined(true), unaligned), 4u);
  EXPECT_EQ(cycles(refined(false), unaligned), 3u);
  // Word-aligned: ldr.w r0,[r1] 2; ldr.w r2,[r3] pipelined 1 = 3.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {kLdrWR0R1, kLdrWR2R3})), 3u);
}

TEST(CortexM4Model, IndexedLoadsOnTheSameBaseDoNotChain) {
  // Measured (M4): "pre/post-indexed loads cannot be chained back to back on the same base
  // register (alternating two bases works)"; always applied.
  // ldr.w r0,[r1],#4 2; ldr.w r2,[r1],#4 2 = 4.
  EXPECT_EQ(cycles(kM4, straight(kCode, {kLdrPostR0R1, kLdrPostR2R1})), 4u);
  // ldr.w r0,[r1],#4 2; ldr.w r2,[r3],#4 pipelined 1 = 3.
  EXPECT_EQ(cycles(kM4, straight(kCode, {kLdrPostR0R1, kLdrPostR2R3})), 3u);
}

TEST(CortexM4Model, LoadAbsorbsAFollowingNop) {
  // Measured: "a load can absorb a following NOP (not CMP/TST), which then costs nothing".
  // ldr r0,[r1] 2; nop 0 = 2.
  const auto nop = straight(kCode, {enc::kLdrR0R1, enc::kNop});
  EXPECT_EQ(cycles(refined(true), nop), 2u);
  EXPECT_EQ(cycles(refined(false), nop), 3u);
  // ldr r0,[r1] 2; cmp r0,#0 1 = 3.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kLdrR0R1, enc::kCmpR0Imm})), 3u);
  // "Register-offset stores take 2 (and can absorb a NOP)": str r2,[r3,r4] 2; nop 0 = 2.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kStrR2R3R4, enc::kNop})), 2u);
  // An immediate-offset store does not: str r0,[r1] 1; nop 1 = 2.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kStrR0R1, enc::kNop})), 2u);
}

TEST(CortexM4Model, LiteralLoadContendsWithFetch) {
  // TRM 3.3.2: "LDR Rx,[PC,#imm] may add a cycle (contention with instruction fetch)".
  // ldr r0,[pc,#4] 2 + 1 = 3; without the refinements 2.
  EXPECT_EQ(cycles(refined(true), straight(kCode, {enc::kLdrLiteral})), 3u);
  EXPECT_EQ(cycles(refined(false), straight(kCode, {enc::kLdrLiteral})), 2u);
}

TEST(CortexM4Model, NameShowsTheRefinements) {
  EXPECT_EQ(model_for(refined(true))->name(),
            "cortex-m4/2 ws=0 prefetch=on icache=off refinements=on");
}

}  // namespace
}  // namespace fathom::sim::timing
