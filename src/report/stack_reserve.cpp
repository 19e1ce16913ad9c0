#include "report/stack_reserve.h"

#include <fmt/core.h>

#include <algorithm>

#include "report/summary.h"

namespace fathom::report {

std::vector<StackOverrun> stack_overruns(const model::RunResult& run) {
  std::vector<StackOverrun> out;
  for (const auto& image : run.images) {
    const uint32_t reserve = image.provenance.stack_reserve_bytes;
    if (reserve == 0) continue;
    for (const auto& op : image.operations) {
      if (op.kat != model::KatStatus::kPassed) continue;  // no figure of it is reported
      const uint64_t peak =
          std::max(op.peak_stack_bytes.value_or(0), op.sim_peak_stack_bytes.value_or(0));
      if (peak > reserve) out.push_back({&image, &op, peak, reserve});
    }
  }
  return out;
}

std::string stack_overrun_text(const StackOverrun& o) {
  return fmt::format(
      "WARNING: {} ({} on {}) used {} bytes of stack, more than the board's {}-byte stack "
      "reserve: on the part it would overrun its stack",
      o.operation->operation, o.image->configuration, o.image->board,
      with_thousands(o.peak_stack_bytes), with_thousands(o.stack_reserve_bytes));
}

}  // namespace fathom::report
