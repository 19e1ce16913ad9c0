#include "pipeline/cross_check.h"

#include <fmt/core.h>

#include <algorithm>

namespace fathom::pipeline {
namespace {

const char* kat_name(model::KatStatus s) {
  switch (s) {
    case model::KatStatus::kPassed: return "pass";
    case model::KatStatus::kFailed: return "fail";
    case model::KatStatus::kNotRun: break;
  }
  return "not run";
}

// The first run whose samples differ, or the number of runs if only that differs; empty if
// equal.
template <typename T>
std::string sample_difference(const std::vector<T>& a, const std::vector<T>& b,
                              const char* what, const std::string& first_target,
                              const std::string& second_target) {
  if (a == b) return {};
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i])
      return fmt::format("run {}: {} {} on {}, {} on {} ({:+})", i, a[i], what, first_target,
                         b[i], second_target,
                         static_cast<int64_t>(b[i]) - static_cast<int64_t>(a[i]));
  return fmt::format("{} timed runs on {}, {} on {}", a.size(), first_target, b.size(),
                     second_target);
}

}  // namespace

model::CrossCheck cross_check(const std::vector<model::OperationResult>& first,
                              const std::string& first_target,
                              const std::vector<model::OperationResult>& second,
                              const std::string& second_target) {
  model::CrossCheck out;
  out.target = second_target;
  for (const auto& a : first) {
    const auto it = std::find_if(second.begin(), second.end(),
                                 [&](const auto& b) { return b.operation == a.operation; });
    if (it == second.end()) {
      out.differences.push_back(fmt::format("{}: ran on {} but not on {}", a.operation,
                                            first_target, second_target));
      continue;
    }
    const model::OperationResult& b = *it;
    if (a.kat != b.kat) {
      out.differences.push_back(fmt::format("{}: KAT {} on {}, {} on {}", a.operation,
                                            kat_name(a.kat), first_target, kat_name(b.kat),
                                            second_target));
      continue;
    }
    if (a.instruction_samples.empty() || b.instruction_samples.empty()) continue;
    ++out.operations_compared;
    // Instructions always; cycles too when both targets measured them (the QEMU engine
    // against the simulator: the same timing model on two emulators).
    const bool cycles = !a.cycle_samples.empty() && !b.cycle_samples.empty();
    if (cycles) ++out.cycle_operations_compared;
    const std::string instructions =
        sample_difference(a.instruction_samples, b.instruction_samples, "instructions",
                          first_target, second_target);
    const std::string cycle_detail =
        cycles ? sample_difference(a.cycle_samples, b.cycle_samples, "cycles", first_target,
                                   second_target)
               : std::string();
    for (const std::string* detail : {&instructions, &cycle_detail})
      if (!detail->empty()) out.differences.push_back(fmt::format("{}: {}", a.operation, *detail));
    // The firmware's own memory figures (its MEM record: painted stack, allocator counters)
    // come from the same code on both targets.
    const struct {
      const char* what;
      const std::optional<uint64_t> model::OperationResult::*field;
    } memory[] = {{"peak stack bytes", &model::OperationResult::peak_stack_bytes},
                  {"heap peak bytes", &model::OperationResult::heap_peak_bytes},
                  {"allocations", &model::OperationResult::allocations},
                  {"heap bytes at start", &model::OperationResult::heap_start_bytes},
                  // and what a simulator's memory watch saw, when both targets watched
                  {"peak stack bytes seen by the simulator",
                   &model::OperationResult::sim_peak_stack_bytes},
                  {"heap peak bytes seen by the simulator",
                   &model::OperationResult::sim_heap_peak_bytes},
                  {"allocations seen by the simulator", &model::OperationResult::sim_allocations}};
    // The primitive shares, when both targets tracked them (the same call tracker).
    if (!a.primitive_share.empty() && !b.primitive_share.empty() &&
        (a.primitive_share != b.primitive_share || a.primitive_calls != b.primitive_calls))
      out.differences.push_back(fmt::format("{}: primitive shares differ between {} and {}",
                                            a.operation, first_target, second_target));
    for (const auto& m : memory) {
      const auto& x = a.*m.field;
      const auto& y = b.*m.field;
      if (x && y && *x != *y)
        out.differences.push_back(fmt::format("{}: {} {} on {}, {} on {}", a.operation, *x,
                                              m.what, first_target, *y, second_target));
    }
  }
  for (const auto& b : second)
    if (std::none_of(first.begin(), first.end(),
                     [&](const auto& a) { return a.operation == b.operation; }))
      out.differences.push_back(fmt::format("{}: ran on {} but not on {}", b.operation,
                                            second_target, first_target));
  return out;
}

}  // namespace fathom::pipeline
