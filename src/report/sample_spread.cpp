#include "report/sample_spread.h"

#include <fmt/core.h>

#include <algorithm>

#include "report/summary.h"

namespace fathom::report {

std::vector<SampleSpread> fixed_input_spreads(const model::RunResult& run) {
  std::vector<SampleSpread> out;
  for (const auto& image : run.images)
    for (const auto& op : image.operations)
      if (op.is_measured() && op.runs_reason == model::RunsReason::kFixedInputs &&
          op.samples_identical == false && op.distinct_inputs == 0)
        out.push_back({&image, &op});
  return out;
}

std::string sample_spread_text(const SampleSpread& s) {
  const model::OperationResult& op = *s.operation;
  // The cycles where the target counts them, else the instructions.
  const bool cycles = !op.cycle_samples.empty();
  const auto& samples = cycles ? op.cycle_samples : op.instruction_samples;
  const auto [low, high] = std::minmax_element(samples.begin(), samples.end());
  return fmt::format(
      "WARNING: {} ({} on {}): its {} timed runs differ on a deterministic target ({} to {} {}), "
      "so its input is not fixed per run: declare it in the suite's fresh_inputs to measure it "
      "with the suite's runs",
      op.operation, s.image->configuration, s.image->board, samples.size(),
      with_thousands(samples.empty() ? 0 : *low), with_thousands(samples.empty() ? 0 : *high),
      cycles ? "cycles" : "instructions");
}

}  // namespace fathom::report
