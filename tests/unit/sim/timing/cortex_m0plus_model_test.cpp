// Micro-kernels on the Cortex-M0+ model (TRM section 3.3 counts; src/sim/timing/
// cortex_m0plus_model.cpp), each count derived by hand.
#include "sim/timing/cortex_m0plus_model.h"

#include <gtest/gtest.h>

#include "timing_test_support.h"

namespace fathom::sim::timing {
namespace {

using namespace testing;  // NOLINT: test helpers
const char* const kM0 = "cortex-m0plus";

TEST(CortexM0PlusModel, LoadsAndStoresTakeTwoWithoutPipelining) {
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kLdrR0R1, enc::kLdrR2R3})), 4u);
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kStrR0R1, enc::kLdrR2R3})), 4u);
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kLdrR0R1R2})), 2u);
}

TEST(CortexM0PlusModel, MultipleTransfers) {
  // ldmia 1 + 4 = 5; push {r4, lr} 1 + 2 = 3; pop {r4, pc} 3 + 2 = 5, then nop 1.
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kLdmia4})), 5u);
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kPushR4Lr})), 3u);
  EXPECT_EQ(cycles(kM0, {{kCode, enc::kPopR4Pc}, {0x2000, enc::kNop}}), 6u);
}

TEST(CortexM0PlusModel, Branches) {
  // b.n 2 + nop 1, at any target alignment.
  EXPECT_EQ(cycles(kM0, {{kCode, enc::kBN}, {kCode + 8, enc::kNop}}), 3u);
  EXPECT_EQ(cycles(kM0, {{kCode, enc::kBN}, {kCode + 10, enc::kNop}}), 3u);
  // bne.n not taken 1; taken 2.
  EXPECT_EQ(cycles(kM0, straight(kCode, {enc::kBneN})), 1u);
  EXPECT_EQ(cycles(kM0, {{kCode, enc::kBneN}, {kCode + 8, enc::kNop}}), 3u);
  // bl 3; bx lr 2; nop 1 = 6.
  EXPECT_EQ(cycles(kM0, {{kCode, enc::kBl}, {0x2000, enc::kBxLr}, {kCode + 4, enc::kNop}}), 6u);
}

TEST(CortexM0PlusModel, MultiplierIsABoardOption) {
  EXPECT_EQ(cycles(board(kM0), straight(kCode, {enc::kMuls})), 1u);
  const auto small = board(kM0, 0, true, false, model::Multiplier::kSmall);
  EXPECT_EQ(cycles(small, straight(kCode, {enc::kMuls})), 32u);
  EXPECT_EQ(model_for(small)->name(),
            "cortex-m0plus/1 ws=0 prefetch=on icache=off multiplier=small");
}

}  // namespace
}  // namespace fathom::sim::timing
