#include "report/table_writer.h"

#include <fmt/core.h>

#include <algorithm>
#include <sstream>

#include "report/analysis_text.h"
#include "report/sample_spread.h"
#include "report/stack_reserve.h"
#include "report/summary_grid.h"

namespace fathom::report {
namespace {

// Terminal columns taken by UTF-8 `text`: one per code point (the table only uses
// single-width characters such as 'µ' and '×').
size_t display_width(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

void pad(std::ostream& out, const std::string& text, size_t width, bool right) {
  const size_t fill = width - std::min(width, display_width(text));
  if (right)
    out << std::string(fill, ' ') << text;
  else
    out << text << std::string(fill, ' ');
}

void write_line(std::ostream& out, const std::vector<std::string>& cells,
                const std::vector<size_t>& widths, const std::vector<bool>& right) {
  std::ostringstream line;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line << "  ";
    pad(line, cells[i], widths[i], right[i]);
  }
  std::string text = line.str();
  text.erase(text.find_last_not_of(' ') + 1);  // no trailing blanks after a short last cell
  out << text << '\n';
}

// "2026-11-30T03:12:45Z" (Provenance::reused_from) as "2026-11-30 03:12 UTC"; other text as is.
std::string readable_time(const std::string& iso) {
  if (iso.size() != 20 || iso[10] != 'T' || iso[19] != 'Z') return iso;
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

}  // namespace

void TableWriter::write(const model::RunResult& run, std::ostream& out) const {
  const Summary summary = summarize_run(run, RowOrder::kOperation);
  out << "suite " << run.suite << ": " << summary.configuration_count
      << (summary.configuration_count == 1 ? " configuration" : " configurations") << " on "
      << summary.board_count << (summary.board_count == 1 ? " board" : " boards") << '\n';
  if (!summary.rows.empty()) {
    const Grid grid = summary_grid(summary);
    std::vector<size_t> widths;
    for (const auto& header : grid.headers) widths.push_back(display_width(header));
    for (const auto& row : grid.rows)
      for (size_t i = 0; i < row.size(); ++i)
        widths[i] = std::max(widths[i], display_width(row[i]));
    out << '\n';
    write_line(out, grid.headers, widths, grid.right_aligned);
    std::vector<std::string> rule;
    for (size_t width : widths) rule.push_back(std::string(width, '-'));
    write_line(out, rule, widths, grid.right_aligned);
    for (const auto& row : grid.rows) write_line(out, row, widths, grid.right_aligned);
    if (!grid.footnotes.empty()) out << '\n';
    for (const auto& note : grid.footnotes) out << note << '\n';
  }
  // The cross-check of two targets (fathom run --cross-check).
  for (const auto& img : run.images) {
    if (!img.cross_check) continue;
    const auto& c = *img.cross_check;
    out << '\n'
        << fmt::format("cross-check of {} on {} ({}) against {}: {} operation{} compared, {}",
                       img.configuration, img.board, img.provenance.target, c.target,
                       c.operations_compared, c.operations_compared == 1 ? "" : "s",
                       c.differences.empty()
                           ? (c.cycle_operations_compared > 0
                                  ? "cycles, instruction counts, memory figures and KATs equal"
                                  : "instruction counts, memory figures and KATs equal")
                           : fmt::format("{} difference{}", c.differences.size(),
                                         c.differences.size() == 1 ? "" : "s"))
        << '\n';
    for (const auto& d : c.differences) out << "  " << d << '\n';
  }
  // Right under the table: the figures of such a run are not what the part would do.
  if (const auto overruns = stack_overruns(run); !overruns.empty()) {
    out << '\n';
    for (const auto& o : overruns) out << stack_overrun_text(o) << '\n';
  }
  // Operations given fewer runs on a claim their samples disproved.
  if (const auto spreads = fixed_input_spreads(run); !spreads.empty()) {
    out << '\n';
    for (const auto& s : spreads) out << sample_spread_text(s) << '\n';
  }
  // Say honestly which figures were not measured in this run (the result cache).
  bool reused_header = false;
  for (const auto& image : run.images) {
    if (image.provenance.reused_from.empty()) continue;
    if (!reused_header) out << "\nreused results (fathom run --fresh measures again):\n";
    reused_header = true;
    out << "  " << image.configuration << " on " << image.board << ": measured "
        << readable_time(image.provenance.reused_from) << ", reused\n";
  }
  for (const auto& section : {fairness_lines(run), workflow_lines(run)}) {
    if (section.empty()) continue;
    out << '\n';
    for (const auto& line : section) out << line << '\n';
  }
  if (!summary.problems.empty()) {
    out << "\nproblems:\n";
    for (const auto& problem : summary.problems) out << "  " << problem << '\n';
  }
}

}  // namespace fathom::report
