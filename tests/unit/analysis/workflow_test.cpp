#include "analysis/workflow.h"

#include <gtest/gtest.h>

#include "../report/run_fixture.h"

namespace fathom::analysis {
namespace {

using report::fixture::image;
using report::fixture::passed_op;

model::OperationResult op_with_bytes(const std::string& name, uint64_t cycles,
                                     uint64_t stack_bytes,
                                     std::map<std::string, uint64_t> bytes) {
  auto op = passed_op(name, {cycles});
  op.peak_stack_bytes = stack_bytes;
  op.object_bytes = std::move(bytes);
  return op;
}

model::Workflow kem_flow() {
  model::WorkflowVariant v;
  v.name = "kem";
  v.steps = {{"key establishment", {"keygen", "decaps"}}, {"key derivation", {"hkdf"}}};
  v.wire = {"keygen.public_key", "decaps.ciphertext"};
  v.stored = {"hkdf.derived_key"};
  return model::Workflow{"receive-new-key", "", {v}};
}

TEST(Workflow, StepsSumTheirOperationsAndBytesComeFromTheReports) {
  model::RunResult run;
  auto img = image("device");
  img.operations = {op_with_bytes("keygen", 1000, 600, {{"public_key", 800}}),
                    op_with_bytes("decaps", 2000, 900, {{"ciphertext", 768}}),
                    op_with_bytes("hkdf", 50, 300, {{"derived_key", 32}})};
  run.images = {img, image("other")};  // "other" lacks the operations: skipped
  const auto results = evaluate_workflows(run, {kem_flow()});
  ASSERT_EQ(results.size(), 1u);
  const auto& r = results[0];
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.configuration, "device");
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].cycles, 3000);
  EXPECT_EQ(r.steps[0].peak_stack_bytes, 900u);
  EXPECT_EQ(r.total_cycles, 3050);
  EXPECT_EQ(r.wire_bytes, 1568u);
  EXPECT_EQ(r.stored_bytes, 32u);
  EXPECT_EQ(r.peak_stack_bytes, 900u);
}

TEST(Workflow, MissingSizesUntimedOperationsAndAbsentOperationsAreErrors) {
  model::RunResult run;
  auto img = image("device");
  img.operations = {op_with_bytes("keygen", 1000, 600, {{"public_key", 800}}),
                    op_with_bytes("decaps", 2000, 900, {}),  // reports no ciphertext size
                    op_with_bytes("hkdf", 50, 300, {{"derived_key", 32}})};
  run.images = {img};
  auto results = evaluate_workflows(run, {kem_flow()});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].error,
            "decaps did not report the size of 'ciphertext' (it reported: nothing)");

  run.images[0].operations[0].kat = model::KatStatus::kFailed;
  results = evaluate_workflows(run, {kem_flow()});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_NE(results[0].error.find("keygen has no timing in this image"), std::string::npos);

  run.images[0].operations.pop_back();  // no image offers hkdf
  results = evaluate_workflows(run, {kem_flow()});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].configuration, "");
  EXPECT_NE(results[0].error.find("no image of the run has all of its operations"),
            std::string::npos);
}

TEST(Workflow, HeapPeakIsTheLargestOperationPeak) {
  model::RunResult run;
  auto img = image("device");
  img.operations = {op_with_bytes("keygen", 1000, 600, {{"public_key", 800}}),
                    op_with_bytes("decaps", 2000, 900, {{"ciphertext", 768}}),
                    op_with_bytes("hkdf", 50, 300, {{"derived_key", 32}})};
  img.operations[0].heap_peak_bytes = 4000;
  img.operations[1].heap_peak_bytes = 1500;
  img.operations[2].heap_peak_bytes.reset();  // hkdf has none: it adds nothing
  run.images = {img};
  const auto results = evaluate_workflows(run, {kem_flow()});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].steps[0].heap_peak_bytes, 4000u);
  EXPECT_EQ(results[0].steps[1].heap_peak_bytes, 0u);
  EXPECT_EQ(results[0].heap_peak_bytes, 4000u);
}

TEST(WorkflowVerdicts, CheapestVariantPerConfigurationWithRatiosAndTies) {
  auto result = [](std::string variant, std::string config, double cycles, std::string error = "") {
    model::WorkflowResult r;
    r.workflow = "sae-handshake";
    r.variant = std::move(variant);
    r.configuration = std::move(config);
    r.board = "sim-m33";
    r.total_cycles = cycles;
    r.error = std::move(error);
    return r;
  };
  const std::vector<model::WorkflowResult> results = {
      result("h2e", "a", 100.0), result("hnp", "a", 162.0),
      result("h2e", "b", 200.0), result("hnp", "b", 199.5),   // within 0.5 %: a tie
      result("h2e", "c", 10.0),  result("hnp", "c", 0.0, "sae_hnp_commit has no timing"),
  };
  const auto verdicts = workflow_verdicts(results);
  ASSERT_EQ(verdicts.size(), 2u);  // c has one evaluated variant: no verdict
  EXPECT_EQ(verdicts[0].configuration, "a");
  EXPECT_EQ(verdicts[0].cheapest, "h2e");
  ASSERT_EQ(verdicts[0].others.size(), 1u);
  EXPECT_EQ(verdicts[0].others[0].variant, "hnp");
  EXPECT_DOUBLE_EQ(verdicts[0].others[0].ratio, 1.62);
  EXPECT_FALSE(verdicts[0].others[0].tie);
  EXPECT_EQ(verdicts[1].cheapest, "hnp");
  EXPECT_TRUE(verdicts[1].others[0].tie);
}

}  // namespace
}  // namespace fathom::analysis
