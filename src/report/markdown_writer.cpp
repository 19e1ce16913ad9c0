#include "report/markdown_writer.h"

#include "report/summary_grid.h"
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
  }
  if (!summary.problems.empty()) {
    out << "\n### Problems\n\n";
    for (const auto& problem : summary.problems) out << "- " << markdown_cell(problem) << '\n';
  }
}

}  // namespace fathom::report
