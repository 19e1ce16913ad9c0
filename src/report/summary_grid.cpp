#include "report/summary_grid.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <utility>

namespace fathom::report {
namespace {

constexpr const char* kMissing = "-";
constexpr const char* kUnavailable = "n/a";  // cycles on a target without a cycle counter

std::string cycles(double value) {
  if (!std::isfinite(value) || value < 0) return kMissing;
  return with_thousands(static_cast<uint64_t>(std::llround(value)));
}

std::string optional_count(const std::optional<uint64_t>& value, bool show) {
  return show && value ? with_thousands(*value) : kMissing;
}

// "31,250.00": two decimals, thousands separators in the integer part.
std::string microseconds(double value) {
  if (!std::isfinite(value) || value < 0) return kMissing;
  const std::string text = fmt::format("{:.2f}", value);
  const auto dot = text.find('.');
  const auto whole = static_cast<uint64_t>(std::stoull(text.substr(0, dot)));
  return with_thousands(whole) + text.substr(dot);
}

// "bignum 93%, SHA-2 2%": the groups of a primitive share with at least 1%, largest first (ties
// by name), at most three; "<1%" when no group reaches 1%. A share just under 100% prints as
// 99%, so "100%" means the whole operation.
// The largest groups (at least 1 %), each with its calls per execution when they were counted
// ("Legendre 9% ×43": 43 outermost calls per execution; one decimal when the mean is not whole).
std::string share_text(const std::map<std::string, double>& share,
                       const std::map<std::string, double>& calls) {
  std::vector<std::pair<std::string, double>> groups;
  for (const auto& [name, fraction] : share)
    if (std::isfinite(fraction) && fraction >= 0.01) groups.emplace_back(name, fraction);
  if (groups.empty()) return "<1%";
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  std::string text;
  const size_t shown = calls.empty() ? 3 : 5;
  for (size_t i = 0; i < groups.size() && i < shown; ++i) {
    const double percent = groups[i].second * 100.0;
    const long rounded = percent < 100.0 ? std::min(99L, std::lround(percent)) : 100L;
    text += fmt::format("{}{} {}%", i ? ", " : "", groups[i].first, rounded);
    if (auto it = calls.find(groups[i].first); it != calls.end() && std::isfinite(it->second)) {
      const double n = it->second;
      text += n == std::floor(n) ? fmt::format(" ×{}", with_thousands(static_cast<uint64_t>(n)))
                                 : fmt::format(" ×{:.1f}", n);
    }
  }
  return text;
}

}  // namespace

Grid summary_grid(const Summary& summary, GridStyle style) {
  struct Column {
    std::string header;
    bool right;
    ColumnFit fit;
    std::function<std::string(const SummaryRow&)> cell;
  };
  const bool wide = style == GridStyle::kWide;
  const bool show_board = summary.board_count > 1;
  const bool show_ratio = summary.configuration_count >= 2;
  bool show_note = false;
  for (const auto& row : summary.rows) show_note = show_note || !row_note(row).empty();

  auto stats = [](const SummaryRow& row) -> const model::Statistics* {
    return row.timed && !row.cycles_unavailable ? &*row.operation->cycles : nullptr;
  };
  // A cycle statistic's cell: "n/a" where the target has no cycle counter.
  auto cycle_cell = [&](const SummaryRow& r, const std::function<std::string(const model::Statistics&)>& f) {
    if (r.cycles_unavailable) return std::string(kUnavailable);
    return stats(r) ? f(*stats(r)) : std::string(kMissing);
  };
  auto distinct = [](const SummaryRow& r) { return r.timed && r.operation->distinct_inputs; };
  std::vector<Column> columns;
  // Compact: a short header, so that the column may shrink further.
  const Column configuration{wide ? "configuration" : "config", false, ColumnFit::kShrink,
                             [](auto& r) { return r.image->configuration; }};
  const Column board{"board", false, ColumnFit::kShrink, [](auto& r) { return r.image->board; }};
  // Compact: '*' after the name marks samples over distinct inputs (a footnote says how many).
  const Column operation{"operation", false, ColumnFit::kShrink, [&](auto& r) {
                           if (!r.operation) return std::string(kMissing);
                           return r.operation->operation + (!wide && distinct(r) ? "*" : "");
                         }};
  if (wide) {
    columns.push_back(configuration);
    if (show_board) columns.push_back(board);
    columns.push_back(operation);
  } else {
    columns.push_back(operation);
    columns.push_back(configuration);
    if (show_board) columns.push_back(board);
  }
  columns.push_back({wide ? "median [cycles]" : "cycles", true, ColumnFit::kFixed,
                     [&](auto& r) { return cycle_cell(r, [](auto& s) { return cycles(s.median); }); }});
  // '*' marks the fastest configuration of each operation (per board), "tie" every
  // configuration as fast as the fastest within the noise threshold.
  bool show_fastest = false;
  for (const auto& row : summary.rows)
    show_fastest = show_fastest || row.fastest != FastestMark::kNone;
  if (show_fastest)
    columns.push_back({wide ? "fastest" : "", false, ColumnFit::kFixed, [](auto& r) {
                         switch (r.fastest) {
                           case FastestMark::kFastest:
                             return "*";
                           case FastestMark::kTied:
                             return "tie";
                           case FastestMark::kNone:
                             break;
                         }
                         return "";
                       }});
  // '*': the samples are over distinct inputs (a footnote says how many). "(det.)": fewer
  // runs, as the target is deterministic and the input fixed (pipeline/run_selection.h).
  auto fixed_inputs = [](const SummaryRow& r) {
    return r.timed && r.operation->runs_reason == model::RunsReason::kFixedInputs &&
           r.operation->distinct_inputs == 0;
  };
  bool show_fixed = false;
  if (wide) {
    columns.push_back({"p99 [cycles]", true, ColumnFit::kFixed, [&](auto& r) {
                         return cycle_cell(r, [](auto& s) { return cycles(s.p99); });
                       }});
    columns.push_back({"min [cycles]", true, ColumnFit::kFixed, [&](auto& r) {
                         return cycle_cell(r, [](auto& s) { return with_thousands(s.min); });
                       }});
    columns.push_back({"max [cycles]", true, ColumnFit::kFixed, [&](auto& r) {
                         return cycle_cell(r, [](auto& s) { return with_thousands(s.max); });
                       }});
    for (const auto& row : summary.rows) show_fixed = show_fixed || fixed_inputs(row);
    columns.push_back({"n", true, ColumnFit::kFixed, [&](auto& r) {
                         // Without cycles, the runs are counted by their instruction samples.
                         const model::Statistics* s =
                             r.cycles_unavailable ? &*r.operation->instructions : stats(r);
                         if (!s) return std::string(kMissing);
                         return std::to_string(s->count) + (distinct(r) ? "*" : "") +
                                (fixed_inputs(r) ? " (det.)" : "");
                       }});
    columns.push_back({"instructions (median)", true, ColumnFit::kFixed, [](auto& r) {
                         return r.timed && r.operation->instructions
                                    ? cycles(r.operation->instructions->median)
                                    : kMissing;
                       }});
  } else if (any_cycles_unavailable(summary)) {
    // Compact, on a target without cycles: the instruction count is the figure there is.
    columns.push_back({"instructions", true, ColumnFit::kFixed, [](auto& r) {
                         return r.timed && r.operation->instructions
                                    ? cycles(r.operation->instructions->median)
                                    : kMissing;
                       }});
  }
  columns.push_back(
      {wide ? "time [µs]" : "µs", true, ColumnFit::kFixed, [](auto& r) {
         return r.cycles_unavailable ? kUnavailable
                                     : r.time_us ? microseconds(*r.time_us) : kMissing;
       }});
  if (show_ratio)
    columns.push_back({"ratio", true, ColumnFit::kFixed, [](auto& r) {
                         return r.cycles_unavailable ? std::string(kUnavailable)
                                : r.ratio ? fmt::format("{:.2f}×", *r.ratio)
                                          : std::string(kMissing);
                       }});
  columns.push_back({wide ? "peak stack [bytes]" : "stack B", true, ColumnFit::kFixed,
                     [](auto& r) {
                       return r.operation
                                  ? optional_count(r.operation->peak_stack_bytes, r.kat_passed)
                                  : kMissing;
                     }});
  columns.push_back({wide ? "heap peak [bytes]" : "heap B", true, ColumnFit::kFixed,
                     [](auto& r) {
                       return r.operation
                                  ? optional_count(r.operation->heap_peak_bytes, r.kat_passed)
                                  : kMissing;
                     }});
  if (wide)
    columns.push_back({"allocs", true, ColumnFit::kFixed, [](auto& r) {
                         return r.operation
                                    ? optional_count(r.operation->allocations, r.kat_passed)
                                    : kMissing;
                       }});
  // Compact: the verdict only; the problems under the table name the failed vectors.
  columns.push_back({"KAT", false, wide ? ColumnFit::kShrink : ColumnFit::kFixed, [&](auto& r) {
                       if (!r.operation) return std::string(kMissing);
                       if (!wide && r.operation->kat == model::KatStatus::kFailed) return std::string("FAIL");
                       return kat_text(*r.operation);
                     }});
  bool show_share = false;
  for (const auto& row : summary.rows)
    show_share = show_share || (row.timed && !row.operation->primitive_share.empty());
  if (wide && show_share)
    columns.push_back({"primitive share", false, ColumnFit::kShrink, [](auto& r) {
                         return r.timed && !r.operation->primitive_share.empty()
                                    ? share_text(r.operation->primitive_share, r.operation->primitive_calls)
                                    : std::string(kMissing);
                       }});
  if (show_note)
    columns.push_back({"note", false, ColumnFit::kOverflow, [](auto& r) { return row_note(r); }});

  Grid grid;
  if (!wide)
    grid.footnotes.push_back(
        "cycles: the median of the timed runs; µs: that median at the board's clock; stack B, "
        "heap B: peak bytes (--wide: every column)");
  if (any_cycles_unavailable(summary))
    grid.footnotes.push_back(fmt::format("n/a: {}", kCyclesUnavailableNote));
  if (show_fastest)
    grid.footnotes.push_back(fmt::format(
        "fastest: * the lowest median, more than {}% below every other configuration's; tie: "
        "within {}% of the lowest median, as are others",
        plain_number(model::kNoiseThresholdPercent), plain_number(model::kNoiseThresholdPercent)));
  if (show_fixed)
    grid.footnotes.push_back(
        "(det.): a deterministic target repeats the operation's fixed input exactly, so it made "
        "fewer timed runs than the suite's; operations the suite declares in fresh_inputs, and "
        "--runs N, get the full count");
  for (const auto& column : columns) {
    grid.headers.push_back(column.header);
    grid.right_aligned.push_back(column.right);
    grid.fit.push_back(column.fit);
  }
  for (const auto& row : summary.rows) {
    auto& cells = grid.rows.emplace_back();
    for (const auto& column : columns) cells.push_back(column.cell(row));
    if (row.timed && row.operation->distinct_inputs)
      grid.footnotes.push_back(fmt::format(
          "* {} ({}{}{}): {} distinct inputs, one per timed run; {} over them",
          row.operation->operation, row.image->configuration, show_board ? ", " : "",
          show_board ? row.image->board : "", row.operation->distinct_inputs,
          wide ? "median/p99/min/max are" : "the figures are"));
  }
  return grid;
}

}  // namespace fathom::report
