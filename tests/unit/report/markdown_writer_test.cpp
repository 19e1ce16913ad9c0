#include "report/markdown_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "run_fixture.h"

namespace fathom::report {
namespace {

std::vector<std::string> table_rows(const model::RunResult& run) {
  std::ostringstream out;
  MarkdownWriter().write(run, out);
  std::vector<std::string> rows;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);)
    if (!line.empty() && line.front() == '|') rows.push_back(line);
  return rows;
}

// Cells of a markdown row, honouring "\|" escapes.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      out.push_back(cell.substr(1, cell.size() - 2));  // strip the padding blanks
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

size_t index_of(const std::vector<std::string>& header, const std::string& name) {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  return header.size();
}

TEST(MarkdownWriter, EveryRowHasTheHeaderColumnCount) {
  auto run = fixture::make_run(3);
  run.images[0].operations[0].error = "a | b";  // must be escaped, not split
  const auto rows = table_rows(run);
  ASSERT_GE(rows.size(), 3u);
  const auto header = cells(rows[0]);
  for (const auto& row : rows) EXPECT_EQ(cells(row).size(), header.size()) << row;
  EXPECT_NE(rows[1].find("---:"), std::string::npos);  // numeric columns right-aligned
}

TEST(MarkdownWriter, RatioColumnOnlyWithTwoConfigurations) {
  const auto single = cells(table_rows(fixture::make_run(1))[0]);
  EXPECT_EQ(index_of(single, "ratio"), single.size());
  const auto rows = table_rows(fixture::make_run(2));
  const auto header = cells(rows[0]);
  const size_t ratio = index_of(header, "ratio");
  ASSERT_LT(ratio, header.size());
  const size_t config = index_of(header, "configuration");
  const size_t op = index_of(header, "operation");
  for (size_t i = 2; i < rows.size(); ++i) {
    const auto row = cells(rows[i]);
    if (row[op] != "sha256_1k") continue;
    EXPECT_EQ(row[ratio], row[config] == "mbedtls" ? "1.00×" : "2.00×");
  }
}

}  // namespace
}  // namespace fathom::report
