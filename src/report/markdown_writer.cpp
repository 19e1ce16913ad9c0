#include "report/markdown_writer.h"

#include "report/summary_grid.h"

namespace fathom::report {
namespace {

// A cell must not end the row early or break the line: '|' is escaped, newlines become spaces.
std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

void write_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& cell : cells) out << ' ' << escape(cell) << " |";
  out << '\n';
}

}  // namespace

void MarkdownWriter::write(const model::RunResult& run, std::ostream& out) const {
  const Summary summary = summarize_run(run, RowOrder::kOperation);
  out << "## Suite `" << escape(run.suite) << "`\n";
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
    for (const auto& problem : summary.problems) out << "- " << escape(problem) << '\n';
  }
}

}  // namespace fathom::report
