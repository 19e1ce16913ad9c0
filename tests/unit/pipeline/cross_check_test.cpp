#include "pipeline/cross_check.h"

#include <gtest/gtest.h>

namespace fathom::pipeline {
namespace {

model::OperationResult op(const std::string& name, std::vector<uint64_t> instructions,
                          model::KatStatus kat = model::KatStatus::kPassed) {
  model::OperationResult r;
  r.operation = name;
  r.kat = kat;
  r.instruction_samples = std::move(instructions);
  return r;
}

TEST(CrossCheck, EqualCountsAgree) {
  const auto c = cross_check({op("a", {10, 10}), op("b", {7})}, "qemu",
                             {op("a", {10, 10}), op("b", {7})}, "sim");
  EXPECT_EQ(c.target, "sim");
  EXPECT_EQ(c.operations_compared, 2u);
  EXPECT_TRUE(c.differences.empty());
}

TEST(CrossCheck, ADifferentRunIsNamedWithBothFigures) {
  const auto c = cross_check({op("a", {10, 12})}, "qemu", {op("a", {10, 11})}, "sim");
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0], "a: run 1: 12 instructions on qemu, 11 on sim (-1)");
}

TEST(CrossCheck, KatVerdictsAndMissingOperationsAreDifferences) {
  const auto c = cross_check({op("a", {1}), op("b", {}, model::KatStatus::kFailed)}, "qemu",
                             {op("b", {}, model::KatStatus::kPassed), op("c", {1})}, "sim");
  ASSERT_EQ(c.differences.size(), 3u);
  EXPECT_EQ(c.differences[0], "a: ran on qemu but not on sim");
  EXPECT_EQ(c.differences[1], "b: KAT fail on qemu, pass on sim");
  EXPECT_EQ(c.differences[2], "c: ran on sim but not on qemu");
  EXPECT_EQ(c.operations_compared, 0u);
}

TEST(CrossCheck, CyclesAreComparedWhenBothTargetsMeasuredThem) {
  auto with_cycles = [](std::vector<uint64_t> instructions, std::vector<uint64_t> cycles) {
    model::OperationResult r = op("a", std::move(instructions));
    r.cycle_samples = std::move(cycles);
    return r;
  };
  const auto equal = cross_check({with_cycles({10}, {30})}, "qemu", {with_cycles({10}, {30})},
                                 "sim");
  EXPECT_TRUE(equal.differences.empty());
  EXPECT_EQ(equal.cycle_operations_compared, 1u);
  const auto differ = cross_check({with_cycles({10, 10}, {30, 31})}, "qemu",
                                  {with_cycles({10, 10}, {30, 33})}, "sim");
  ASSERT_EQ(differ.differences.size(), 1u);
  EXPECT_EQ(differ.differences[0], "a: run 1: 31 cycles on qemu, 33 on sim (+2)");
  // Instructions and cycles both differ: both are named.
  const auto both = cross_check({with_cycles({10}, {30})}, "qemu", {with_cycles({11}, {32})},
                                "sim");
  EXPECT_EQ(both.differences.size(), 2u);
  // One side without cycles (QEMU 7.2 counts instructions only): instructions alone.
  const auto one = cross_check({op("a", {10})}, "qemu", {with_cycles({10}, {30})}, "sim");
  EXPECT_TRUE(one.differences.empty());
  EXPECT_EQ(one.cycle_operations_compared, 0u);
  EXPECT_EQ(one.operations_compared, 1u);
}

TEST(CrossCheck, TheFirmwaresMemoryFiguresAreCompared) {
  model::OperationResult a = op("a", {10});
  model::OperationResult b = op("a", {10});
  a.peak_stack_bytes = 872;
  b.peak_stack_bytes = 872;
  a.heap_peak_bytes = 1056;
  b.heap_peak_bytes = 1064;
  a.allocations = 2;  // the other side did not report it: nothing to compare
  const auto c = cross_check({a}, "qemu", {b}, "sim");
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0], "a: 1056 heap peak bytes on qemu, 1064 on sim");
}

TEST(CrossCheck, PrimitiveSharesAreComparedWhenBothTracked) {
  model::OperationResult a = op("a", {10});
  model::OperationResult b = op("a", {10});
  a.primitive_share = {{"AES", 0.5}};
  b.primitive_share = {{"AES", 0.5}};
  EXPECT_TRUE(cross_check({a}, "qemu", {b}, "sim").differences.empty());
  b.primitive_share["AES"] = 0.25;
  const auto c = cross_check({a}, "qemu", {b}, "sim");
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0], "a: primitive shares differ between qemu and sim");
  b.primitive_share.clear();  // not tracked on one side: nothing to compare
  EXPECT_TRUE(cross_check({a}, "qemu", {b}, "sim").differences.empty());
}

TEST(CrossCheck, ADifferentNumberOfRunsIsADifference) {
  const auto c = cross_check({op("a", {5, 5})}, "qemu", {op("a", {5})}, "sim");
  ASSERT_EQ(c.differences.size(), 1u);
  EXPECT_EQ(c.differences[0], "a: 2 timed runs on qemu, 1 on sim");
}

TEST(CrossCheck, AFailedCrossCheckFailsTheRun) {
  model::RunResult run;
  model::ImageResult image;
  image.completed = true;
  model::CrossCheck check;
  check.target = "sim";
  check.operations_compared = 1;
  check.differences = {"a: differs"};
  image.cross_check = check;
  run.images.push_back(image);
  EXPECT_FALSE(run.all_passed());
  run.images[0].cross_check->differences.clear();
  EXPECT_TRUE(run.all_passed());
}

}  // namespace
}  // namespace fathom::pipeline
