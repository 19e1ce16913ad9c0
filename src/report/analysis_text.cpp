#include "report/analysis_text.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "report/summary.h"

namespace fathom::report {
namespace {

std::string cycles_text(double value) {
  return std::isfinite(value) && value >= 0 ? with_thousands(static_cast<uint64_t>(std::llround(value)))
                                            : "-";
}

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
                                c.operation, c.group, cycles_text(*lo), cycles_text(*hi),
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
                                "peak stack {} bytes",
                                w.variant, w.configuration, w.board, cycles_text(w.total_cycles),
                                time_text(w.total_cycles, w.clock_hz),
                                with_thousands(w.wire_bytes), with_thousands(w.stored_bytes),
                                with_thousands(w.peak_stack_bytes)));
    for (const auto& s : w.steps) {
      std::string ops;
      for (const auto& op : s.operations) ops += (ops.empty() ? "" : " + ") + op;
      lines.push_back(fmt::format("    {:<20} {:>14} cycles{}  {}", s.name, cycles_text(s.cycles),
                                  time_text(s.cycles, w.clock_hz), ops));
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
  return lines;
}

}  // namespace fathom::report
