#include "report/benchmark_tables.h"

#include <fmt/core.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "report/summary.h"
#include "report/markdown_text.h"

namespace fathom::report {
namespace {

struct Column {
  std::string header;
  bool right_aligned = false;
};

void write_header(std::ostream& out, const std::vector<Column>& columns) {
  out << '|';
  for (const auto& c : columns) out << ' ' << markdown_cell(c.header) << " |";
  out << "\n|";
  for (const auto& c : columns) out << (c.right_aligned ? " ---: |" : " --- |");
  out << '\n';
}

void write_row(std::ostream& out, const std::vector<std::string>& cells) {
  out << '|';
  for (const auto& cell : cells) out << ' ' << markdown_cell(cell) << " |";
  out << '\n';
}

std::string rounded(double value) {
  if (!std::isfinite(value) || value < 0) return "-";
  return with_thousands(static_cast<uint64_t>(std::llround(value)));
}

std::string bytes(const std::optional<uint64_t>& value) {
  return value ? with_thousands(*value) : "-";
}

// "operation | implementation [| board]": the leading columns and cells of every table.
struct RowKey {
  bool with_board = false;

  std::vector<Column> columns(bool with_operation) const {
    std::vector<Column> out;
    if (with_operation) out.push_back({"operation", false});
    out.push_back({"implementation", false});
    if (with_board) out.push_back({"board", false});
    return out;
  }
  std::vector<std::string> cells(const model::ImageResult& image,
                                 const model::OperationResult* op) const {
    std::vector<std::string> out;
    if (op) out.push_back(op->operation);
    out.push_back(image.configuration);
    if (with_board) out.push_back(image.board);
    return out;
  }
};

std::string board_line(const model::ImageResult& image) {
  const auto& p = image.provenance;
  std::string line = fmt::format("- board `{}`", markdown_cell(image.board));
  if (!p.core.empty()) line += fmt::format(": {}", markdown_cell(p.core));
  if (p.clock_hz > 0)
    line += fmt::format("{} {} MHz", p.core.empty() ? ":" : " at",
                        plain_number(static_cast<double>(p.clock_hz) / 1e6));
  if (!p.timing_model.empty()) line += fmt::format(", timing model `{}`", markdown_cell(p.timing_model));
  return line + '\n';
}

void write_speed(std::ostream& out, const Summary& summary, const RowKey& key) {
  out << "\n## Speed\n\n";
  auto columns = key.columns(true);
  for (const char* header :
       {"runs", "AVG [cycles]", "median [cycles]", "MIN [cycles]", "MAX [cycles]"})
    columns.push_back({header, true});
  write_header(out, columns);
  for (const auto& row : summary.rows) {
    if (!row.operation) continue;
    auto cells = key.cells(*row.image, row.operation);
    if (row.cycles_unavailable) {
      cells.insert(cells.end(),
                   {with_thousands(row.operation->instructions->count), "n/a", "n/a", "n/a", "n/a"});
    } else if (row.timed) {
      const auto& c = *row.operation->cycles;
      cells.insert(cells.end(), {with_thousands(c.count), rounded(c.mean), rounded(c.median),
                                 with_thousands(c.min), with_thousands(c.max)});
    } else if (!row.operation->not_timed.empty()) {
      cells.insert(cells.end(), {"not timed", "-", "-", "-", "-"});
    } else {
      cells.insert(cells.end(), {"-", "-", "-", "-", "-"});
    }
    write_row(out, cells);
  }
  if (any_cycles_unavailable(summary)) out << "\nn/a: " << kCyclesUnavailableNote << "\n";
}

void write_memory(std::ostream& out, const Summary& summary, const RowKey& key) {
  out << "\n## Memory\n\n";
  auto columns = key.columns(true);
  columns.push_back({"stack [bytes]", true});
  columns.push_back({"heap [bytes]", true});
  write_header(out, columns);
  for (const auto& row : summary.rows) {
    if (!row.operation) continue;
    auto cells = key.cells(*row.image, row.operation);
    cells.push_back(row.kat_passed ? bytes(row.operation->peak_stack_bytes) : "-");
    cells.push_back(row.kat_passed ? bytes(row.operation->heap_peak_bytes) : "-");
    write_row(out, cells);
  }
}

void write_primitive_share(std::ostream& out, const Summary& summary, const RowKey& key) {
  // Sorted for a stable column order; a group with no cycles in any row has no column.
  std::set<std::string> groups;
  for (const auto& row : summary.rows)
    if (row.operation && row.kat_passed)
      for (const auto& [group, share] : row.operation->primitive_share)
        if (share > 0) groups.insert(group);
  if (groups.empty()) return;
  out << "\n## Primitive share\n\nShare of each operation's cycles spent in each group of "
         "functions; nested groups count for each of them.\n\n";
  auto columns = key.columns(true);
  for (const auto& group : groups) columns.push_back({group + " [%]", true});
  write_header(out, columns);
  for (const auto& row : summary.rows) {
    if (!row.operation || !row.kat_passed || row.operation->primitive_share.empty()) continue;
    auto cells = key.cells(*row.image, row.operation);
    for (const auto& group : groups) {
      const auto it = row.operation->primitive_share.find(group);
      cells.push_back(it == row.operation->primitive_share.end() || !std::isfinite(it->second)
                          ? "-"
                          : fmt::format("{:.1f}", it->second * 100.0));
    }
    write_row(out, cells);
  }
}

void write_size(std::ostream& out, const model::RunResult& run, const RowKey& key) {
  bool any = false;
  for (const auto& image : run.images) any = any || image.size.has_value();
  if (!any) return;
  out << "\n## Size\n\n";
  auto columns = key.columns(false);
  columns.push_back({"flash [bytes]", true});
  columns.push_back({"RAM [bytes]", true});
  write_header(out, columns);
  for (const auto& image : run.images) {
    if (!image.size) continue;
    auto cells = key.cells(image, nullptr);
    cells.push_back(with_thousands(image.size->flash_bytes));
    cells.push_back(with_thousands(image.size->ram_bytes));
    write_row(out, cells);
  }
}

}  // namespace

void BenchmarkTablesWriter::write(const model::RunResult& run, std::ostream& out) const {
  const Summary summary = summarize_run(run, RowOrder::kOperation);
  const RowKey key{summary.board_count > 1};
  out << "# Benchmarks: suite `" << markdown_cell(run.suite) << "`\n";
  std::set<std::string> boards_seen;
  bool first_board = true;
  for (const auto& image : run.images) {
    if (!boards_seen.insert(image.board).second) continue;
    out << (first_board ? "\n" : "") << board_line(image);
    first_board = false;
  }
  bool any_operation = false;
  for (const auto& row : summary.rows) any_operation = any_operation || row.operation;
  if (any_operation) {
    write_speed(out, summary, key);
    write_memory(out, summary, key);
    write_primitive_share(out, summary, key);
  }
  write_size(out, run, key);
  if (!summary.problems.empty()) {
    out << "\n## Problems\n\n";
    for (const auto& problem : summary.problems) out << "- " << markdown_cell(problem) << '\n';
  }
}

}  // namespace fathom::report
