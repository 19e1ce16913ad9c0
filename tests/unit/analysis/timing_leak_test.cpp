// Differential timing verdicts (analysis/timing_leak.h, `fathom ct`): constant, leak, varies (the
// control with the secret fixed differs too, each variant as the control's run at its position)
// and not checked, with the reason for each.
#include "analysis/timing_leak.h"

#include <gtest/gtest.h>

#include "../report/run_fixture.h"

namespace fathom::analysis {
namespace {

using report::fixture::image;
using report::fixture::passed_op;

model::OperationResult variants_op(const std::string& name, std::vector<uint64_t> cycles) {
  model::OperationResult op = passed_op(name, cycles);
  op.secret_variants = static_cast<uint32_t>(cycles.size());
  return op;
}

model::RunResult one_image(std::vector<model::OperationResult> ops) {
  model::RunResult run;
  auto img = image("mbedtls");
  img.operations = std::move(ops);
  run.images = {img};
  return run;
}

TEST(TimingLeak, EqualCyclesOverEveryVariantIsConstant) {
  const auto run = one_image({variants_op("compare", {160, 160, 160, 160})});
  const auto v = timing_verdicts(run);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kConstant);
  EXPECT_EQ(v[0].variants, 4u);
  EXPECT_EQ(v[0].min_cycles, 160u);
  EXPECT_EQ(v[0].max_cycles, 160u);
  EXPECT_EQ(v[0].distinct_cycle_counts, 1u);
  EXPECT_EQ(to_string(v[0].verdict), "constant");
}

TEST(TimingLeak, OneCycleOfDifferenceIsALeakWithItsExtremeVariants) {
  const auto run = one_image({variants_op("compare", {160, 161, 159, 160})});
  const auto v = timing_verdicts(run);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kLeak);
  EXPECT_EQ(v[0].fastest_variant, 2u);
  EXPECT_EQ(v[0].slowest_variant, 1u);
  EXPECT_EQ(v[0].max_cycles - v[0].min_cycles, 2u);
  EXPECT_EQ(v[0].distinct_cycle_counts, 3u);
  ASSERT_TRUE(v[0].fastest_instructions);
  EXPECT_EQ(*v[0].fastest_instructions, 159u / 2);
  EXPECT_FALSE(v[0].control);
}

TEST(TimingLeak, EqualCyclesButDifferentInstructionsIsALeak) {
  auto op = variants_op("compare", {160, 160});
  op.instruction_samples = {80, 81};
  const auto v = timing_verdicts(one_image({op}));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kLeak);
}

model::RunResult isolated(model::RunResult run, const std::string& isolation = "snapshot") {
  for (auto& img : run.images) img.provenance.isolation = isolation;
  return run;
}

TEST(TimingLeak, AControlVaryingLikeEveryVariantAtItsPositionIsVariesAndAConstantOneKeepsTheLeak) {
  const auto run = isolated(one_image({variants_op("ecdh", {1000, 1080, 1010}),
                                       variants_op("divide", {26, 35, 30})}));
  const auto control = isolated(one_image({passed_op("ecdh", {1000, 1080, 1010}),
                                           passed_op("divide", {26, 26, 26})}));
  const auto v = timing_verdicts(run, &control);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kVaries);
  ASSERT_TRUE(v[0].control);
  EXPECT_EQ(v[0].control->max_cycles - v[0].control->min_cycles, 80u);
  EXPECT_EQ(v[0].control->distinct_cycle_counts, 3u);
  ASSERT_TRUE(v[0].paired);
  EXPECT_EQ(v[0].paired->differing_runs, 0u);
  EXPECT_TRUE(v[0].reason.empty()) << v[0].reason;
  EXPECT_EQ(to_string(v[0].verdict), "varies");
  EXPECT_EQ(v[1].verdict, TimingVerdict::kLeak);
  ASSERT_TRUE(v[1].control);
  EXPECT_FALSE(v[1].control->varies());
  EXPECT_FALSE(v[1].paired);  // a constant control needs no pairing
  EXPECT_TRUE(v[1].reason.empty());
}

TEST(TimingLeak, AVariantThatDiffersFromTheControlsRunAtItsPositionIsALeak) {
  // Run 1 and 2 differ from the secret-fixed runs 1 and 2 (by 20 and 40 cycles); run 0 is
  // variant 0 in both.
  auto run = isolated(one_image({variants_op("ecdh", {1000, 1100, 1050})}));
  const auto control = isolated(one_image({passed_op("ecdh", {1000, 1080, 1010})}));
  auto v = timing_verdicts(run, &control);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kLeak);
  ASSERT_TRUE(v[0].paired);
  EXPECT_EQ(v[0].paired->differing_runs, 2u);
  EXPECT_EQ(v[0].paired->max_cycles, 40u);
  EXPECT_EQ(v[0].paired->max_run, 2u);
  // Equal cycles at every position but one instruction more in run 1: the secret changed what
  // ran.
  run = isolated(one_image({variants_op("ecdh", {1000, 1080, 1010})}));
  auto control_instr = control;
  run.images[0].operations[0].instruction_samples = {500, 541, 505};
  control_instr.images[0].operations[0].instruction_samples = {500, 540, 505};
  v = timing_verdicts(run, &control_instr);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kLeak);
  ASSERT_TRUE(v[0].paired);
  EXPECT_EQ(v[0].paired->differing_runs, 1u);
  EXPECT_EQ(v[0].paired->max_cycles, 0u);
  EXPECT_EQ(v[0].paired->max_run, 1u);
}

TEST(TimingLeak, RunsWithoutSnapshotIsolationOrOfUnequalCountsAreNotPaired) {
  // One pass (each operation in the state the previous ones left): the control's smaller
  // selection of operations started elsewhere, so position r is not the same execution.
  const auto run = isolated(one_image({variants_op("ecdh", {1000, 1100, 1050})}), "none");
  const auto control = isolated(one_image({passed_op("ecdh", {1000, 1080, 1010})}), "none");
  auto v = timing_verdicts(run, &control);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kVaries);
  EXPECT_FALSE(v[0].paired);
  EXPECT_NE(v[0].reason.find("snapshot"), std::string::npos) << v[0].reason;
  const auto shorter = isolated(one_image({passed_op("ecdh", {1000, 1080})}));
  v = timing_verdicts(isolated(run), &shorter);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kVaries);
  EXPECT_FALSE(v[0].paired);
  EXPECT_NE(v[0].reason.find("number of runs"), std::string::npos) << v[0].reason;
}

TEST(TimingLeak, AMissingControlStaysALeakAndSaysSo) {
  const auto run = one_image({variants_op("divide", {26, 35})});
  const auto control = one_image({});
  const auto v = timing_verdicts(run, &control);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].verdict, TimingVerdict::kLeak);
  EXPECT_NE(v[0].reason.find("control run"), std::string::npos) << v[0].reason;
}

TEST(TimingLeak, NoSecretHookFailedKatAndImageErrorsAreNotChecked) {
  auto no_secret = passed_op("sha256_1k", {1280, 1280});  // secret_variants stays 0
  auto failed = variants_op("broken", {500, 600});
  failed.kat = model::KatStatus::kFailed;
  auto single = variants_op("single", {500});
  model::RunResult run = one_image({no_secret, failed, single});
  model::ImageResult faulted = image("faulted");
  faulted.error = "build failed";
  run.images.push_back(faulted);
  const auto v = timing_verdicts(run);
  ASSERT_EQ(v.size(), 4u);
  for (const auto& t : v) EXPECT_EQ(t.verdict, TimingVerdict::kNotChecked) << t.operation;
  EXPECT_NE(v[0].reason.find("declares no secret"), std::string::npos) << v[0].reason;
  EXPECT_NE(v[1].reason.find("known-answer"), std::string::npos) << v[1].reason;
  EXPECT_NE(v[2].reason.find("fewer than two"), std::string::npos) << v[2].reason;
  EXPECT_EQ(v[3].configuration, "faulted");
  EXPECT_TRUE(v[3].operation.empty());
  EXPECT_NE(v[3].reason.find("build failed"), std::string::npos) << v[3].reason;
  EXPECT_EQ(to_string(v[0].verdict), "not checked");
}

}  // namespace
}  // namespace fathom::analysis
