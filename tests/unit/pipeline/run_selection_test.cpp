#include "pipeline/run_selection.h"

#include <gtest/gtest.h>

namespace fathom::pipeline {
namespace {

using model::RunsReason;

RunSelectionInputs deterministic_suite() {
  RunSelectionInputs in;
  in.suite_runs = 10;
  in.fresh_inputs = {"ecdsa_p256_sign", "*_keygen"};
  in.deterministic_target = true;
  return in;
}

TEST(RunSelection, AFixedInputOperationGetsTwoRunsOnADeterministicTarget) {
  const OperationRuns r = select_runs(deterministic_suite(), "sha256_1k");
  EXPECT_EQ(r.runs, kFixedInputRuns);
  EXPECT_EQ(r.runs, 2u);
  EXPECT_EQ(r.reason, RunsReason::kFixedInputs);
}

TEST(RunSelection, DeclaredOperationsKeepTheSuitesRunsByNameOrPattern) {
  for (const char* op : {"ecdsa_p256_sign", "ecdh_p256_keygen", "mlkem512_keygen"}) {
    const OperationRuns r = select_runs(deterministic_suite(), op);
    EXPECT_EQ(r.runs, 10u) << op;
    EXPECT_EQ(r.reason, RunsReason::kFreshInputs) << op;
  }
  // A pattern matches the whole name only.
  EXPECT_EQ(select_runs(deterministic_suite(), "ecdsa_p256_sign_hash").reason,
            RunsReason::kFixedInputs);
  EXPECT_EQ(select_runs(deterministic_suite(), "keygen_x").reason, RunsReason::kFixedInputs);
}

TEST(RunSelection, ATargetThatIsNotDeterministicKeepsTheSuitesRuns) {
  RunSelectionInputs in = deterministic_suite();
  in.deterministic_target = false;
  for (const char* op : {"sha256_1k", "ecdsa_p256_sign"}) {
    const OperationRuns r = select_runs(in, op);
    EXPECT_EQ(r.runs, 10u) << op;
    EXPECT_EQ(r.reason, RunsReason::kSuite) << op;
  }
}

TEST(RunSelection, TheCommandLineAppliesToEveryOperationAsGiven) {
  for (bool deterministic : {true, false}) {
    RunSelectionInputs in = deterministic_suite();
    in.deterministic_target = deterministic;
    in.command_line_runs = 5;
    for (const char* op : {"sha256_1k", "ecdsa_p256_sign"}) {
      const OperationRuns r = select_runs(in, op);
      EXPECT_EQ(r.runs, 5u) << op;
      EXPECT_EQ(r.reason, RunsReason::kCommandLine) << op;
    }
    in.command_line_runs = 1;  // fewer than two too: the user asked for it
    EXPECT_EQ(select_runs(in, "sha256_1k").runs, 1u);
  }
}

TEST(RunSelection, ASuiteAskingForTwoOrFewerRunsIsNotRaised) {
  RunSelectionInputs in = deterministic_suite();
  for (uint32_t runs : {1u, 2u}) {
    in.suite_runs = runs;
    const OperationRuns r = select_runs(in, "sha256_1k");
    EXPECT_EQ(r.runs, runs);
    EXPECT_EQ(r.reason, RunsReason::kSuite);
  }
  in.suite_runs = 3;
  EXPECT_EQ(select_runs(in, "sha256_1k").runs, 2u);
}

TEST(RunSelection, SelectsEveryOperationByName) {
  const auto selected = select_runs(deterministic_suite(), std::vector<std::string>{"a_keygen", "b"});
  ASSERT_EQ(selected.size(), 2u);
  EXPECT_EQ(selected.at("a_keygen").runs, 10u);
  EXPECT_EQ(selected.at("b").runs, 2u);
}

model::OperationResult measured(const std::string& name, std::vector<uint64_t> cycles) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kPassed;
  op.cycle_samples = std::move(cycles);
  op.instruction_samples = std::vector<uint64_t>(op.cycle_samples.size(), 7);
  op.cycles = model::summarize(op.cycle_samples);
  op.instructions = model::summarize(op.instruction_samples);
  return op;
}

TEST(RunSelection, RecordRunsSaysWhyAndWhetherTheSamplesAreIdentical) {
  std::vector<model::OperationResult> ops = {measured("same", {5, 5}), measured("differ", {5, 6}),
                                             measured("one", {9})};
  model::OperationResult failed;
  failed.operation = "failed";
  failed.kat = model::KatStatus::kFailed;
  ops.push_back(failed);
  model::OperationResult instructions_differ = measured("insn", {5, 5});
  instructions_differ.instruction_samples = {7, 8};
  ops.push_back(instructions_differ);

  const auto selected = select_runs(deterministic_suite(),
                                    std::vector<std::string>{"same", "differ", "one", "failed"});
  record_runs(ops, selected);
  EXPECT_EQ(ops[0].requested_runs, 2u);
  EXPECT_EQ(ops[0].runs_reason, RunsReason::kFixedInputs);
  EXPECT_EQ(ops[0].samples_identical, true);
  EXPECT_EQ(ops[1].samples_identical, false);
  EXPECT_EQ(ops[2].samples_identical, true);  // one sample is trivially identical
  EXPECT_EQ(ops[3].requested_runs, 2u);       // asked for, though it was never timed
  EXPECT_FALSE(ops[3].samples_identical.has_value());
  EXPECT_EQ(ops[4].samples_identical, false);  // equal cycles, different instructions
  EXPECT_EQ(ops[4].runs_reason, RunsReason::kUnknown);  // not in the selection
  EXPECT_EQ(ops[4].requested_runs, 0u);
}

}  // namespace
}  // namespace fathom::pipeline
