// Flash wait states, prefetch and instruction cache (src/sim/timing/fetch_model.h), seen
// through the Cortex-M4 model: each count is the M4 table plus the wait states derived by hand.
#include "sim/timing/fetch_model.h"

#include <gtest/gtest.h>

#include "timing_test_support.h"

namespace fathom::sim::timing {
namespace {

using namespace testing;  // NOLINT: test helpers
const char* const kM4 = "cortex-m4";

// Three nops and a branch back to the first, executed twice (the second branch falls through):
// nop@0x1000, nop@0x1002 (word 0x1000), nop@0x1004, b.n@0x1006 (word 0x1004), one 16-byte line.
std::vector<Step> loop_twice() {
  std::vector<Step> trace;
  for (int i = 0; i < 2; ++i)
    for (const auto& s : straight(kCode, {enc::kNop, enc::kNop, enc::kNop, enc::kBN}))
      trace.push_back(s);
  return trace;
}

TEST(FetchModel, WithoutPrefetchEveryFetchWordWaits) {
  // 4 nops = 4, two fetch words x 2 wait states = 4: 8.
  const auto b = board(kM4, 2, /*prefetch=*/false);
  EXPECT_EQ(cycles(b, straight(kCode, {enc::kNop, enc::kNop, enc::kNop, enc::kNop})), 8u);
}

TEST(FetchModel, PrefetchHidesSequentialFetches) {
  // Only the first fetch (a change of flow) waits: 4 + 2 = 6.
  const auto b = board(kM4, 2, /*prefetch=*/true);
  EXPECT_EQ(cycles(b, straight(kCode, {enc::kNop, enc::kNop, enc::kNop, enc::kNop})), 6u);
  // b.n 2 + 2 (first fetch); its target nop 1 + 2 (fetch after the branch) = 7.
  EXPECT_EQ(cycles(b, {{kCode, enc::kBN}, {kCode + 8, enc::kNop}}), 7u);
}

TEST(FetchModel, CodeInRamDoesNotWait) {
  const auto b = board(kM4, 2, /*prefetch=*/false);
  EXPECT_EQ(cycles(b, straight(kRamOrigin, {enc::kNop, enc::kNop, enc::kNop, enc::kNop})), 4u);
}

TEST(FetchModel, LiteralLoadsFromFlashWait) {
  // ldr r0,[pc,#4] in flash: 2 + 2 (first fetch) + 2 (literal) = 6; in RAM: 2.
  const auto b = board(kM4, 2, /*prefetch=*/true);
  EXPECT_EQ(cycles(b, straight(kCode, {enc::kLdrLiteral})), 6u);
  EXPECT_EQ(cycles(b, straight(kRamOrigin, {enc::kLdrLiteral})), 2u);
  // Zero wait states: the M4 table alone.
  EXPECT_EQ(cycles(board(kM4), straight(kCode, {enc::kLdrLiteral})), 2u);
}

TEST(FetchModel, InstructionCacheHitsOnTheSecondIteration) {
  // Core cycles: iteration 1 = 3 nops + taken b.n (1 + 1) = 5; iteration 2 = 3 + 1 = 4; 9.
  // No prefetch, no cache: both fetch words wait in each iteration: 9 + 4 x 2 = 17.
  EXPECT_EQ(cycles(board(kM4, 2, false, false), loop_twice()), 17u);
  // Prefetch, no cache: each iteration's first fetch follows a change of flow: 9 + 2 x 2 = 13.
  EXPECT_EQ(cycles(board(kM4, 2, true, false), loop_twice()), 13u);
  // No prefetch, cache: one line miss in the first iteration only: 9 + 2 = 11.
  EXPECT_EQ(cycles(board(kM4, 2, false, true), loop_twice()), 11u);
  EXPECT_EQ(model_for(board(kM4, 2, false, true))->name(),
            "cortex-m4/2 ws=2 prefetch=off icache=on refinements=off");
}

}  // namespace
}  // namespace fathom::sim::timing
