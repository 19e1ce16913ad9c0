#include "compare/comparison.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fathom::compare {
namespace {

// An operation whose KAT passed, timed with `cycles` samples.
model::OperationResult timed(const std::string& name, std::vector<uint64_t> cycles,
                             uint64_t stack_bytes = 1000, uint64_t heap_bytes = 200) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kPassed;
  op.cycle_samples = std::move(cycles);
  op.cycles = model::summarize(op.cycle_samples);
  op.peak_stack_bytes = stack_bytes;
  op.heap_peak_bytes = heap_bytes;
  return op;
}

model::OperationResult kat_failed(const std::string& name) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kFailed;
  op.error = "KAT failed";
  return op;
}

// One image; `timing_model` empty = hardware results.
model::RunResult run_of(std::vector<model::OperationResult> ops,
                        const std::string& configuration = "mbedtls",
                        const std::string& timing_model = "cortex-m33",
                        uint64_t flash_bytes = 50000) {
  model::ImageResult image;
  image.configuration = configuration;
  image.board = "sim-m33";
  image.completed = true;
  image.provenance.timing_model = timing_model;
  image.size = model::ImageSize{flash_bytes, 4000};
  image.operations = std::move(ops);
  model::RunResult run;
  run.suite = "test";
  run.images.push_back(std::move(image));
  return run;
}

const OperationComparison& op_named(const Comparison& c, const std::string& name) {
  for (const auto& op : c.images.at(0).operations)
    if (op.operation == name) return op;
  ADD_FAILURE() << "no operation " << name;
  static OperationComparison none;
  return none;
}

const MetricComparison& cycles_of(const Comparison& c, const std::string& name) {
  return *op_named(c, name).find(Metric::kCycles);
}

TEST(Comparison, WithinHalfPercentIsUnchanged) {
  auto c = compare_runs(run_of({timed("sha256", {100000, 100000})}),
                        run_of({timed("sha256", {100400, 100400})}), {});
  const auto& m = cycles_of(c, "sha256");
  EXPECT_EQ(m.verdict, Verdict::kUnchanged);
  EXPECT_DOUBLE_EQ(*m.delta, 400);
  EXPECT_NEAR(*m.delta_percent, 0.4, 1e-9);
  EXPECT_EQ(c.images[0].flash.verdict, Verdict::kUnchanged);
}

TEST(Comparison, FiveTimesSlowerIsSlowerWithRatio) {
  auto c = compare_runs(run_of({timed("ecdh", {1000, 1000})}),
                        run_of({timed("ecdh", {5000, 5000})}), {});
  const auto& m = cycles_of(c, "ecdh");
  EXPECT_EQ(m.verdict, Verdict::kWorse);
  EXPECT_EQ(verdict_name(m.verdict, m.metric), "slower");
  EXPECT_DOUBLE_EQ(*m.ratio, 5.0);
  EXPECT_DOUBLE_EQ(*m.delta_percent, 400.0);
  // And the other way round.
  auto back = compare_runs(run_of({timed("ecdh", {5000})}), run_of({timed("ecdh", {1000})}), {});
  EXPECT_EQ(verdict_name(cycles_of(back, "ecdh").verdict, Metric::kCycles), "faster");
}

TEST(Comparison, KatFailedSideHasNoTimingAndNoRatio) {
  auto c = compare_runs(run_of({timed("aes", {1000})}), run_of({kat_failed("aes")}), {});
  for (const auto& m : op_named(c, "aes").metrics) {
    EXPECT_EQ(m.verdict, Verdict::kNoTiming) << metric_name(m.metric);
    EXPECT_FALSE(m.ratio.has_value());
    EXPECT_FALSE(m.delta.has_value());
    EXPECT_FALSE(m.b.has_value());
  }
  // A failed KAT never counts as a regression or an improvement.
  CompareOptions gate;
  gate.fail_above = {{0, Metric::kCycles}, {0, Metric::kStack}};
  EXPECT_TRUE(regressions(compare_runs(run_of({kat_failed("aes")}), run_of({timed("aes", {9})}),
                                       gate))
                  .empty());
}

TEST(Comparison, MissingOperationsOnEitherSide) {
  auto c = compare_runs(run_of({timed("only_a", {10}), timed("both", {10})}),
                        run_of({timed("both", {10}), timed("only_b", {10})}), {});
  ASSERT_EQ(c.images.at(0).operations.size(), 3u);
  EXPECT_EQ(cycles_of(c, "only_a").verdict, Verdict::kMissingInB);
  EXPECT_EQ(cycles_of(c, "only_b").verdict, Verdict::kMissingInA);
  EXPECT_EQ(cycles_of(c, "both").verdict, Verdict::kUnchanged);
  EXPECT_FALSE(cycles_of(c, "only_a").ratio.has_value());
}

TEST(Comparison, CoverageCountsSharedAndOneSidedOperations) {
  auto c =
      compare_runs(run_of({timed("only_a", {10}), timed("both", {10}), kat_failed("kat")}),
                   run_of({timed("both", {10}), timed("only_b", {10}), timed("kat", {10})}), {});
  const Coverage got = coverage(c);
  EXPECT_EQ(got.in_both, 2u);  // "kat" is in both, with no timing on A
  EXPECT_EQ(got.only_in_a, 1u);
  EXPECT_EQ(got.only_in_b, 1u);
}

// What a gate cannot judge in B: an operation in both whose KAT failed in B, or that A timed
// and B did not. Not: one B fixed (untimed in A only), one only one side has, or a gate
// operation neither side times by design (its KAT passed, not timed).
TEST(Comparison, UntimedInBListsWhatAGateCannotJudge) {
  model::OperationResult gate_a = timed("selftest", {});
  gate_a.cycles.reset();
  gate_a.not_timed = "a gate operation";
  model::OperationResult gate_b = gate_a;
  model::OperationResult not_timed_b = timed("dropped", {});
  not_timed_b.cycles.reset();
  not_timed_b.not_timed = "not timed";
  auto c = compare_runs(
      run_of({timed("ok", {10}), timed("broken", {10}), kat_failed("fixed"), timed("dropped", {10}),
              timed("only_a", {10}), gate_a}),
      run_of({timed("ok", {10}), kat_failed("broken"), timed("fixed", {10}), not_timed_b,
              kat_failed("only_b"), gate_b}, "mbedtls-b"),
      {});
  const std::vector<Unjudged> got = untimed_in_b(c);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].operation, "broken");
  EXPECT_EQ(got[0].configuration, "mbedtls-b");
  EXPECT_EQ(got[0].board, "sim-m33");
  EXPECT_EQ(got[1].operation, "dropped");
}

// Unpaired images in multi-image runs share nothing: the gate has nothing to judge.
TEST(Comparison, CoverageOfDisjointRunsIsZeroInBoth) {
  auto a = run_of({timed("x", {10})}, "one");
  auto extra = run_of({timed("y", {10})}, "two");
  a.images.push_back(extra.images[0]);
  auto b = run_of({timed("x", {10})}, "three");
  b.images.push_back(run_of({timed("y", {10})}, "four").images[0]);
  const Coverage got = coverage(compare_runs(a, b, {}));
  EXPECT_EQ(got.in_both, 0u);
  EXPECT_EQ(got.only_in_a, 2u);
  EXPECT_EQ(got.only_in_b, 2u);
}

TEST(Comparison, SingleImagesWithDifferentConfigurationsArePaired) {
  auto c = compare_runs(run_of({timed("ecdh", {1000})}, "mbedtls"),
                        run_of({timed("ecdh", {3000})}, "mbedtls-no-nist-optim"), {});
  ASSERT_EQ(c.images.size(), 1u);
  EXPECT_EQ(c.images[0].configuration_a, "mbedtls");
  EXPECT_EQ(c.images[0].configuration_b, "mbedtls-no-nist-optim");
  EXPECT_EQ(cycles_of(c, "ecdh").verdict, Verdict::kWorse);
}

TEST(Comparison, UnpairedImagesInMultiImageRunsAreMissing) {
  auto a = run_of({timed("x", {10})}, "one");
  auto extra = run_of({timed("x", {10})}, "two");
  a.images.push_back(extra.images[0]);
  auto c = compare_runs(a, run_of({timed("x", {10})}, "three"), {});
  ASSERT_EQ(c.images.size(), 3u);
  EXPECT_EQ(c.images[0].operations[0].metrics[0].verdict, Verdict::kMissingInB);
  EXPECT_EQ(c.images[2].operations[0].metrics[0].verdict, Verdict::kMissingInA);
  EXPECT_EQ(c.images[2].flash.verdict, Verdict::kMissingInA);
}

// A simulated run of two configurations against a board run of the same configurations: each
// pairs with its own configuration on the board, and the model/silicon ratio is the
// simulator's cycles over the board's.
TEST(Comparison, SimulatedAndBoardImagesPairByConfigurationWithModelOverSilicon) {
  auto sim = run_of({timed("x", {1000})}, "one");
  sim.images.push_back(run_of({timed("x", {2000})}, "two").images[0]);
  auto board = run_of({timed("x", {1100})}, "one", "");
  board.images.push_back(run_of({timed("x", {1900})}, "two", "").images[0]);
  for (auto& image : board.images) {
    image.board = "nrf54l15dk";
    image.provenance.target = "serial";
  }
  auto c = compare_runs(sim, board, {});
  ASSERT_EQ(c.images.size(), 2u);
  EXPECT_EQ(c.images[0].configuration_b, "one");
  EXPECT_EQ(c.images[0].board_b, "nrf54l15dk");
  EXPECT_EQ(c.images[0].target_b, "serial");
  const auto r0 = model_over_silicon(c.images[0], *c.images[0].operations[0].find(Metric::kCycles));
  ASSERT_TRUE(r0.has_value());
  EXPECT_NEAR(*r0, 1000.0 / 1100.0, 1e-12);
  const auto r1 = model_over_silicon(c.images[1], *c.images[1].operations[0].find(Metric::kCycles));
  ASSERT_TRUE(r1.has_value());
  EXPECT_NEAR(*r1, 2000.0 / 1900.0, 1e-12);
  // The other way round, the ratio is still the simulator's over the board's.
  auto reversed = compare_runs(board, sim, {});
  ASSERT_EQ(reversed.images.size(), 2u);
  EXPECT_NEAR(*model_over_silicon(reversed.images[0],
                                  *reversed.images[0].operations[0].find(Metric::kCycles)),
              1000.0 / 1100.0, 1e-12);
  // Two simulated runs have no such ratio.
  auto same = compare_runs(sim, sim, {});
  EXPECT_FALSE(model_over_silicon(same.images[0], *same.images[0].operations[0].find(Metric::kCycles)));
}

TEST(Comparison, HardwareThresholdWidensWithSpread) {
  // Samples 1000 ± 10: MAD 10, median 1000, so the threshold is 3 × 1.4826 × 1 % = 4.45 %.
  const std::vector<uint64_t> noisy = {990, 1000, 1010};
  auto hw = compare_runs(run_of({timed("op", noisy)}, "mbedtls", ""),
                         run_of({timed("op", {1020, 1020, 1020})}, "mbedtls", ""), {});
  const auto& m = cycles_of(hw, "op");
  EXPECT_NEAR(m.threshold_percent, 3 * 1.4826, 1e-9);
  EXPECT_EQ(m.verdict, Verdict::kUnchanged);  // +2 % is inside the noise
  // The same figures from the simulator: +2 % is beyond 0.5 %.
  auto sim = compare_runs(run_of({timed("op", noisy)}), run_of({timed("op", {1020, 1020, 1020})}),
                          {});
  EXPECT_DOUBLE_EQ(cycles_of(sim, "op").threshold_percent, 0.5);
  EXPECT_EQ(cycles_of(sim, "op").verdict, Verdict::kWorse);
  // One run an interrupt hit does not widen it: MAD of {1000 x4, 5000} is 0.
  auto outlier = compare_runs(run_of({timed("op", {1000, 1000, 5000, 1000, 1000})}, "m", ""),
                              run_of({timed("op", {1010, 1010, 1010, 1010, 1010})}, "m", ""), {});
  EXPECT_DOUBLE_EQ(cycles_of(outlier, "op").threshold_percent, 0.5);
  EXPECT_EQ(cycles_of(outlier, "op").verdict, Verdict::kWorse);  // +1 % is beyond 0.5 %
  // A simulator run against a board run: the board's spread counts.
  auto mixed = compare_runs(run_of({timed("op", {1000, 1000, 1000})}),
                            run_of({timed("op", {990, 1000, 1010})}, "mbedtls", ""), {});
  EXPECT_NEAR(cycles_of(mixed, "op").threshold_percent, 3 * 1.4826, 1e-9);
  // Without spread the hardware threshold falls back to the 0.5 % floor.
  auto quiet = compare_runs(run_of({timed("op", {1000, 1000})}, "m", ""),
                            run_of({timed("op", {1000, 1000})}, "m", ""), {});
  EXPECT_DOUBLE_EQ(cycles_of(quiet, "op").threshold_percent, 0.5);
}

TEST(Comparison, GateTripsOnTenPercentAboveFive) {
  CompareOptions options;
  options.fail_above = {{5, Metric::kCycles}};
  auto c = compare_runs(run_of({timed("op", {1000}), timed("same", {500})}),
                        run_of({timed("op", {1100}), timed("same", {500})}), options);
  auto found = regressions(c);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].operation, "op");
  EXPECT_EQ(found[0].comparison.metric, Metric::kCycles);
  EXPECT_NEAR(*found[0].comparison.delta_percent, 10.0, 1e-9);
  // Not above 20 %.
  options.fail_above = {{20, Metric::kCycles}};
  EXPECT_TRUE(regressions(compare_runs(run_of({timed("op", {1000})}),
                                       run_of({timed("op", {1100})}), options))
                  .empty());
}

TEST(Comparison, GateDoesNotTripOnUnchangedPair) {
  CompareOptions options;
  options.fail_above = {{0.0001, Metric::kCycles}, {0.0001, Metric::kStack}};
  auto c = compare_runs(run_of({timed("op", {1000})}), run_of({timed("op", {1000})}), options);
  EXPECT_TRUE(regressions(c).empty());
}

TEST(Comparison, GateWatchesOnlyTheChosenMetric) {
  // Same cycles, stack 1000 -> 1200 (+20 %), flash 50000 -> 60000 (+20 %).
  auto a = run_of({timed("op", {1000}, 1000)});
  auto b = run_of({timed("op", {1000}, 1200)}, "mbedtls", "cortex-m33", 60000);
  CompareOptions cycles_gate;
  cycles_gate.fail_above = {*parse_gate_rule("5")};
  EXPECT_TRUE(regressions(compare_runs(a, b, cycles_gate)).empty());

  CompareOptions stack_gate;
  stack_gate.fail_above = {*parse_gate_rule("5:stack")};
  auto found = regressions(compare_runs(a, b, stack_gate));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].rule.metric, Metric::kStack);
  EXPECT_EQ(verdict_name(found[0].comparison.verdict, Metric::kStack), "larger");

  CompareOptions flash_gate;
  flash_gate.fail_above = {*parse_gate_rule("5:flash")};
  found = regressions(compare_runs(a, b, flash_gate));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].operation, "");
}

TEST(Comparison, ParsesGateRules) {
  auto plain = parse_gate_rule("5");
  ASSERT_TRUE(plain);
  EXPECT_DOUBLE_EQ(plain->percent, 5);
  EXPECT_EQ(plain->metric, Metric::kCycles);
  auto heap = parse_gate_rule("2.5:heap");
  ASSERT_TRUE(heap);
  EXPECT_DOUBLE_EQ(heap->percent, 2.5);
  EXPECT_EQ(heap->metric, Metric::kHeap);
  EXPECT_EQ(parse_gate_rule("1:instructions")->metric, Metric::kInstructions);
}

TEST(Comparison, RejectsMalformedGateRules) {
  auto abc = parse_gate_rule("abc");
  ASSERT_FALSE(abc);
  EXPECT_TRUE(abc.error().is_usage);
  EXPECT_NE(abc.error().message.find("'abc'"), std::string::npos) << abc.error().message;
  EXPECT_NE(abc.error().message.find("PCT[:metric]"), std::string::npos);

  auto bogus = parse_gate_rule("5:bogus");
  ASSERT_FALSE(bogus);
  EXPECT_TRUE(bogus.error().is_usage);
  EXPECT_NE(bogus.error().message.find("unknown metric 'bogus'"), std::string::npos)
      << bogus.error().message;
  EXPECT_NE(bogus.error().message.find("cycles, instructions, stack, heap or flash"),
            std::string::npos);

  EXPECT_FALSE(parse_gate_rule(""));
  EXPECT_FALSE(parse_gate_rule("-1"));
  EXPECT_FALSE(parse_gate_rule("5%"));
  EXPECT_FALSE(parse_gate_rule("nan"));
}

}  // namespace
}  // namespace fathom::compare
