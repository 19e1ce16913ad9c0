#include "report/analysis_text.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "report/summary.h"

namespace fathom::report {
namespace {

std::string time_text(double cycles, uint64_t clock_hz) {
  if (clock_hz == 0) return "";
  const double ms = cycles * 1e3 / static_cast<double>(clock_hz);
  return fmt::format(" ({:.3f} ms)", ms);
}

}  // namespace

std::vector<std::string> fairness_lines(const model::RunResult& run) {
  std::vector<std::string> lines;
  if (run.fairness.empty()) return lines;
  lines.push_back(fmt::format(
      "fairness control (operations that run identical code must agree within {}%):",
      run.fairness.front().tolerance_percent));
  for (const auto& c : run.fairness) {
    const auto [lo, hi] = std::minmax_element(c.median_cycles.begin(), c.median_cycles.end());
    lines.push_back(fmt::format("  {} in {}: {} .. {} cycles, spread {:.3f}% over {} images: {}",
                                c.operation, c.group, rounded_with_thousands(*lo), rounded_with_thousands(*hi),
                                c.spread_percent, c.configurations.size(),
                                c.passed ? "pass" : "FAIL"));
    if (!c.passed)
      lines.push_back(
          "    the images differ in more than what is under test: their comparison is not fair");
  }
  return lines;
}

std::vector<std::string> workflow_lines(const model::RunResult& run) {
  std::vector<std::string> lines;
  std::string current;
  for (const auto& w : run.workflows) {
    if (w.workflow != current) {
      if (!lines.empty()) lines.push_back("");
      lines.push_back(fmt::format("workflow {}:", w.workflow));
      current = w.workflow;
    }
    if (!w.error.empty()) {
      lines.push_back(fmt::format("  {}{}: {}", w.variant,
                                  w.configuration.empty()
                                      ? std::string()
                                      : fmt::format(" ({} on {})", w.configuration, w.board),
                                  w.error));
      continue;
    }
    lines.push_back(fmt::format("  {} ({} on {}): {} cycles{}, wire {} bytes, stored {} bytes, "
                                "peak stack {} bytes, heap peak {} bytes",
                                w.variant, w.configuration, w.board, rounded_with_thousands(w.total_cycles),
                                time_text(w.total_cycles, w.clock_hz),
                                with_thousands(w.wire_bytes), with_thousands(w.stored_bytes),
                                with_thousands(w.peak_stack_bytes),
                                with_thousands(w.heap_peak_bytes)));
    for (const auto& s : w.steps) {
      std::string ops;
      for (const auto& op : s.operations) ops += (ops.empty() ? "" : " + ") + op;
      lines.push_back(fmt::format("    {:<20} {:>14} cycles{}  stack {:>6} B  heap {:>6} B  {}",
                                  s.name, rounded_with_thousands(s.cycles), time_text(s.cycles, w.clock_hz),
                                  with_thousands(s.peak_stack_bytes),
                                  with_thousands(s.heap_peak_bytes), ops));
    }
    auto objects = [](const auto& list) {
      std::string text;
      for (const auto& [ref, bytes] : list)
        text += fmt::format("{}{} {}", text.empty() ? "" : ", ", ref, with_thousands(bytes));
      return text.empty() ? std::string("none") : text;
    };
    lines.push_back(fmt::format("    wire:   {}", objects(w.wire_objects)));
    lines.push_back(fmt::format("    stored: {}", objects(w.stored_objects)));
  }
  // Which variant is cheaper, per configuration (the whole workflow's cycles).
  std::string verdict_workflow;
  for (const auto& v : run.workflow_verdicts) {
    if (v.workflow != verdict_workflow) {
      lines.push_back("");
      lines.push_back(fmt::format("workflow {}: the cheaper variant per configuration", v.workflow));
      verdict_workflow = v.workflow;
    }
    for (const auto& o : v.others)
      lines.push_back(
          o.tie ? fmt::format("  {} on {}: {} and {} tie ({} vs {} cycles, within {}%)",
                              v.configuration, v.board, v.cheapest, o.variant,
                              rounded_with_thousands(v.cheapest_cycles), rounded_with_thousands(o.cycles),
                              model::kNoiseThresholdPercent)
                : fmt::format("  {} on {}: {} is cheaper; {} costs {:.2f}x as much ({} vs {} "
                              "cycles, {:+.1f}%)",
                              v.configuration, v.board, v.cheapest, o.variant, o.ratio,
                              rounded_with_thousands(o.cycles), rounded_with_thousands(v.cheapest_cycles),
                              (o.ratio - 1.0) * 100.0));
  }
  return lines;
}

}  // namespace fathom::report
