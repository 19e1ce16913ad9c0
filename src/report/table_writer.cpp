#include "report/table_writer.h"

#include <fmt/core.h>

#include <algorithm>
#include <sstream>

#include "report/analysis_text.h"
#include "report/sample_spread.h"
#include "report/stack_reserve.h"
#include "report/summary_grid.h"
#include "report/text_table.h"
#include "report/two_party_text.h"

namespace fathom::report {
namespace {

// "2026-11-30T03:12:45Z" (Provenance::reused_from) as "2026-11-30 03:12 UTC"; other text as is.
std::string readable_time(const std::string& iso) {
  if (iso.size() != 20 || iso[10] != 'T' || iso[19] != 'Z') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

}  // namespace

void TableWriter::write(const model::RunResult& run, std::ostream& out) const {
  // --wide prints whole lines; the compact table fits the width, and so do the lines under it.
  const size_t width = options_.wide ? 0 : options_.width;
  // A line under the table, wrapped at words with its continuation indented two columns more
  // than the line itself.
  auto emit = [&](const std::string& line) {
    const size_t own = std::min(line.find_first_not_of(' '), line.size());
    for (const auto& part : wrap_words(line, width, own + 2)) out << part << '\n';
  };
  const Summary summary = summarize_run(run, RowOrder::kOperation);
  out << "suite " << run.suite << ": " << summary.configuration_count
      << (summary.configuration_count == 1 ? " configuration" : " configurations") << " on "
      << summary.board_count << (summary.board_count == 1 ? " board" : " boards") << '\n';
  if (!summary.rows.empty()) {
    const Grid grid =
        summary_grid(summary, options_.wide ? GridStyle::kWide : GridStyle::kCompact);
    std::vector<TextColumn> columns;
    for (size_t i = 0; i < grid.headers.size(); ++i)
      columns.push_back({grid.headers[i], grid.right_aligned[i], grid.fit[i]});
    TextTable table(std::move(columns));
    for (const auto& row : grid.rows) table.add_row(row);
    out << '\n';
    table.write(out, width);
    if (!grid.footnotes.empty()) out << '\n';
    for (const auto& note : grid.footnotes) emit(note);
  }
  // The cross-check of two targets (fathom run --cross-check).
  for (const auto& img : run.images) {
    if (!img.cross_check) continue;
    const auto& c = *img.cross_check;
    out << '\n';
    emit(fmt::format("cross-check of {} on {} ({}) against {}: {} operation{} compared, {}",
                     img.configuration, img.board, img.provenance.target, c.target,
                     c.operations_compared, c.operations_compared == 1 ? "" : "s",
                     c.differences.empty()
                         ? (c.cycle_operations_compared > 0
                                ? "cycles, instruction counts, memory figures and KATs equal"
                                : "instruction counts, memory figures and KATs equal")
                         : fmt::format("{} difference{}", c.differences.size(),
                                       c.differences.size() == 1 ? "" : "s")));
    for (const auto& d : c.differences) emit("  " + d);
    if (!c.reused_from.empty())
      emit(fmt::format("  {}'s figures: measured {}, reused (fathom run --fresh measures again)",
                       c.target, readable_time(c.reused_from)));
  }
  // Right under the table: the figures of such a run are not what the part would do.
  if (const auto overruns = stack_overruns(run); !overruns.empty()) {
    out << '\n';
    for (const auto& o : overruns) emit(stack_overrun_text(o));
  }
  // Operations given fewer runs on a claim their samples disproved.
  if (const auto spreads = fixed_input_spreads(run); !spreads.empty()) {
    out << '\n';
    for (const auto& s : spreads) emit(sample_spread_text(s));
  }
  // Say honestly which figures were not measured in this run (the result cache).
  bool reused_header = false;
  for (const auto& image : run.images) {
    if (image.provenance.reused_from.empty()) continue;
    if (!reused_header) out << "\nreused results (fathom run --fresh measures again):\n";
    reused_header = true;
    emit("  " + image.configuration + " on " + image.board + ": measured " +
         readable_time(image.provenance.reused_from) + ", reused");
  }
  for (const auto& section : {fairness_lines(run), workflow_lines(run), two_party_lines(run)}) {
    if (section.empty()) continue;
    out << '\n';
    for (const auto& line : section) emit(line);
  }
  if (!summary.problems.empty()) {
    out << "\nproblems:\n";
    for (const auto& problem : summary.problems) emit("  " + problem);
  }
}

}  // namespace fathom::report
