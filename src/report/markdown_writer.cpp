#include "report/markdown_writer.h"

#include "report/sample_spread.h"
#include "report/stack_reserve.h"

#include <utility>

#include "report/summary_grid.h"
#include "report/analysis_text.h"
#include "report/two_party_text.h"
#include "report/markdown_text.h"

namespace fathom::report {
namespace {

void write_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& cell : cells) out << ' ' << markdown_cell(cell) << " |";
  out << '\n';
}

}  // namespace

void MarkdownWriter::write(const model::RunResult& run, std::ostream& out) const {
  const Summary summary = summarize_run(run, RowOrder::kOperation);
  out << "## Suite `" << markdown_cell(run.suite) << "`\n";
  if (!summary.rows.empty()) {
    const Grid grid = summary_grid(summary);
    out << '\n';
    write_row(out, grid.headers);
    out << '|';
    for (bool right : grid.right_aligned) out << (right ? " ---: |" : " --- |");
    out << '\n';
    for (const auto& row : grid.rows) write_row(out, row);
    if (!grid.footnotes.empty()) out << '\n';
    for (const auto& note : grid.footnotes) out << markdown_cell(note) << '\n';
  }
  if (const auto overruns = stack_overruns(run); !overruns.empty()) {
    out << "\n### Stack reserve exceeded\n\n";
    for (const auto& o : overruns) out << "- **" << markdown_cell(stack_overrun_text(o)) << "**\n";
  }
  if (const auto spreads = fixed_input_spreads(run); !spreads.empty()) {
    out << "\n### Samples differ\n\n";
    for (const auto& s : spreads) out << "- **" << markdown_cell(sample_spread_text(s)) << "**\n";
  }
  // Fairness control and workflows as preformatted text (their lines are aligned).
  for (const auto& [title, section] :
       {std::pair{"Fairness control", fairness_lines(run)},
        std::pair{"Device workflows", workflow_lines(run)},
        std::pair{"Two parties in one image", two_party_lines(run)}}) {
    if (section.empty()) continue;
    out << "\n### " << title << "\n\n```\n";
    for (const auto& line : section) out << line << '\n';
    out << "```\n";
  }
  if (!summary.problems.empty()) {
    out << "\n### Problems\n\n";
    for (const auto& problem : summary.problems) out << "- " << markdown_cell(problem) << '\n';
  }
}

}  // namespace fathom::report
