// sim::ItBlock and condition_passed against the Arm ARM v7-M ITSTATE rules.
#include "sim/it_block.h"

#include <gtest/gtest.h>

namespace fathom::sim {
namespace {

constexpr uint32_t N = 1u << 31, Z = 1u << 30, C = 1u << 29, V = 1u << 28;

TEST(ConditionPassed, EveryConditionBothWays) {
  EXPECT_TRUE(condition_passed(0x0, Z));    // EQ
  EXPECT_FALSE(condition_passed(0x0, 0));
  EXPECT_TRUE(condition_passed(0x1, 0));    // NE
  EXPECT_TRUE(condition_passed(0x2, C));    // CS
  EXPECT_TRUE(condition_passed(0x3, 0));    // CC
  EXPECT_TRUE(condition_passed(0x4, N));    // MI
  EXPECT_TRUE(condition_passed(0x5, 0));    // PL
  EXPECT_TRUE(condition_passed(0x6, V));    // VS
  EXPECT_TRUE(condition_passed(0x7, 0));    // VC
  EXPECT_TRUE(condition_passed(0x8, C));    // HI
  EXPECT_FALSE(condition_passed(0x8, C | Z));
  EXPECT_TRUE(condition_passed(0x9, C | Z));  // LS
  EXPECT_TRUE(condition_passed(0xA, N | V));  // GE
  EXPECT_FALSE(condition_passed(0xA, N));
  EXPECT_TRUE(condition_passed(0xB, V));      // LT
  EXPECT_TRUE(condition_passed(0xC, 0));      // GT
  EXPECT_FALSE(condition_passed(0xC, Z));
  EXPECT_TRUE(condition_passed(0xD, Z));      // LE
  EXPECT_TRUE(condition_passed(0xE, 0));      // AL
}

// ITTE EQ (0xBF06: firstcond 0000, mask 0110): then, then, else.
TEST(ItBlock, ThenThenElse) {
  ItBlock it;
  it.start(0x06, Z);
  ASSERT_TRUE(it.active());
  EXPECT_TRUE(it.next_executes());
  EXPECT_TRUE(it.next_executes());
  EXPECT_FALSE(it.next_executes());
  EXPECT_FALSE(it.active());
  it.start(0x06, 0);
  EXPECT_FALSE(it.next_executes());
  EXPECT_FALSE(it.next_executes());
  EXPECT_TRUE(it.next_executes());
  EXPECT_FALSE(it.active());
}

// IT NE (0xBF18: firstcond 0001, mask 1000): one instruction.
TEST(ItBlock, SingleInstruction) {
  ItBlock it;
  it.start(0x18, 0);
  EXPECT_TRUE(it.next_executes());
  EXPECT_FALSE(it.active());
}

// ITETE GT (0xBFCB: firstcond 1100, mask 1011): then, else, then, else — four instructions.
TEST(ItBlock, FourInstructionsAlternating) {
  ItBlock it;
  it.start(0xCB, 0);  // GT holds
  EXPECT_TRUE(it.next_executes());
  EXPECT_FALSE(it.next_executes());
  EXPECT_TRUE(it.next_executes());
  EXPECT_FALSE(it.next_executes());
  EXPECT_FALSE(it.active());
}

}  // namespace
}  // namespace fathom::sim
