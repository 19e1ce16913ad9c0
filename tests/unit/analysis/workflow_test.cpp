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

}  // namespace
}  // namespace fathom::analysis
