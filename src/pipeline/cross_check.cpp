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
    if (a.instruction_samples == b.instruction_samples) continue;
    std::string detail;
    const size_t n = std::min(a.instruction_samples.size(), b.instruction_samples.size());
    for (size_t i = 0; i < n && detail.empty(); ++i)
      if (a.instruction_samples[i] != b.instruction_samples[i])
        detail = fmt::format("run {}: {} instructions on {}, {} on {} ({:+})", i,
                             a.instruction_samples[i], first_target, b.instruction_samples[i],
                             second_target,
                             static_cast<int64_t>(b.instruction_samples[i]) -
                                 static_cast<int64_t>(a.instruction_samples[i]));
    if (detail.empty())
      detail = fmt::format("{} timed runs on {}, {} on {}", a.instruction_samples.size(),
                           first_target, b.instruction_samples.size(), second_target);
    out.differences.push_back(fmt::format("{}: {}", a.operation, detail));
  }
  for (const auto& b : second)
    if (std::none_of(first.begin(), first.end(),
                     [&](const auto& a) { return a.operation == b.operation; }))
      out.differences.push_back(fmt::format("{}: ran on {} but not on {}", b.operation,
                                            second_target, first_target));
  return out;
}

}  // namespace fathom::pipeline
