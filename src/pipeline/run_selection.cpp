#include "pipeline/run_selection.h"

#include <algorithm>
#include <functional>

#include "util/glob.h"

namespace fathom::pipeline {

bool draws_fresh_inputs(const std::vector<std::string>& fresh_inputs, const std::string& operation) {
  return std::any_of(fresh_inputs.begin(), fresh_inputs.end(),
                     [&](const std::string& pattern) { return util::glob_match(pattern, operation); });
}

OperationRuns select_runs(const RunSelectionInputs& inputs, const std::string& operation) {
  using model::RunsReason;
  if (inputs.command_line_runs) return {*inputs.command_line_runs, RunsReason::kCommandLine};
  if (!inputs.deterministic_target) return {inputs.suite_runs, RunsReason::kSuite};
  if (draws_fresh_inputs(inputs.fresh_inputs, operation))
    return {inputs.suite_runs, RunsReason::kFreshInputs};
  if (inputs.suite_runs <= kFixedInputRuns) return {inputs.suite_runs, RunsReason::kSuite};
  return {kFixedInputRuns, RunsReason::kFixedInputs};
}

std::map<std::string, OperationRuns> select_runs(const RunSelectionInputs& inputs,
                                                 const std::vector<std::string>& operations) {
  std::map<std::string, OperationRuns> out;
  for (const auto& op : operations) out[op] = select_runs(inputs, op);
  return out;
}

namespace {

bool all_equal(const std::vector<uint64_t>& samples) {
  return std::adjacent_find(samples.begin(), samples.end(), std::not_equal_to<>()) == samples.end();
}

}  // namespace

void record_runs(std::vector<model::OperationResult>& results,
                 const std::map<std::string, OperationRuns>& selected) {
  for (auto& op : results) {
    if (const auto it = selected.find(op.operation); it != selected.end()) {
      op.requested_runs = it->second.runs;
      op.runs_reason = it->second.reason;
    }
    op.samples_identical.reset();
    if (op.is_measured() && (!op.cycle_samples.empty() || !op.instruction_samples.empty()))
      op.samples_identical = all_equal(op.cycle_samples) && all_equal(op.instruction_samples);
  }
}

}  // namespace fathom::pipeline
