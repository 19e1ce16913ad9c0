#include "report/table_writer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "run_fixture.h"

namespace fathom::report {
namespace {

std::vector<std::string> lines_of(const model::RunResult& run, TableOptions options = {}) {
  std::ostringstream out;
  TableWriter(options).write(run, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Code-point column of byte offset `pos` in UTF-8 `line`.
size_t column_of(const std::string& line, size_t pos) {
  size_t column = 0;
  for (size_t i = 0; i < pos; ++i)
    if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) ++column;
  return column;
}

const std::string* line_with(const std::vector<std::string>& lines, const std::string& a,
                             const std::string& b = "") {
  for (const auto& line : lines)
    if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return &line;
  return nullptr;
}

// The end column of `cell` in `line`, which must contain it.
size_t end_column(const std::string& line, const std::string& cell) {
  const auto pos = line.find(cell);
  EXPECT_NE(pos, std::string::npos) << cell << " not in: " << line;
  return column_of(line, pos + cell.size());
}

TEST(TableWriter, RatioColumnOnlyWithTwoConfigurations) {
  const auto single = lines_of(fixture::make_run(1));
  const auto* header = line_with(single, "config", "operation");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->find(" ratio"), std::string::npos);

  const auto pair = lines_of(fixture::make_run(2));
  header = line_with(pair, "config", "operation");
  ASSERT_NE(header, nullptr);
  ASSERT_NE(header->find(" ratio"), std::string::npos);
  const auto* base = line_with(pair, "mbedtls ", "sha256_1k");
  const auto* other = line_with(pair, "mbedtls-no-nist-optim", "sha256_1k");
  ASSERT_TRUE(base && other);
  EXPECT_NE(base->find("1.00×"), std::string::npos) << *base;
  EXPECT_NE(other->find("2.00×"), std::string::npos) << *other;
  // Right-aligned under its header.
  EXPECT_EQ(end_column(*other, "2.00×"), end_column(*header, " ratio"));
}

TEST(TableWriter, NumbersAreAlignedWithThousandsSeparators) {
  const auto lines = lines_of(fixture::make_run(2), TableOptions{true, 0});
  const auto* header = line_with(lines, "configuration", "operation");
  const auto* sign = line_with(lines, "mbedtls ", "ecdsa_p256_sign");
  const auto* sha = line_with(lines, "mbedtls ", "sha256_1k");
  ASSERT_TRUE(header && sign && sha);
  EXPECT_EQ(end_column(*sign, "4,000,000"), end_column(*header, "median [cycles]"));
  EXPECT_EQ(end_column(*sha, "1,280"), end_column(*header, "median [cycles]"));
  EXPECT_EQ(end_column(*sha, "10.00"), end_column(*header, "time [µs]"));  // 1,280 / 128 MHz
  EXPECT_NE(sign->find("4,000,100"), std::string::npos);                   // max
  EXPECT_EQ(end_column(*sign, "31,250.00"), end_column(*header, "time [µs]"));
  EXPECT_NE(sha->find("pass"), std::string::npos);
}

TEST(TableWriter, UntimedOperationShowsDashesAndItsReason) {
  const auto lines = lines_of(fixture::make_run(2), TableOptions{true, 0});
  const auto* failed = line_with(lines, "mbedtls-no-nist-optim", "ecdsa_p256_sign");
  const auto* header = line_with(lines, "configuration", "operation");
  ASSERT_TRUE(failed && header);
  EXPECT_EQ(end_column(*failed, " -"), end_column(*header, "median [cycles]"));
  EXPECT_NE(failed->find("FAIL: rfc6979-a.2.5-sha256"), std::string::npos);
  EXPECT_NE(failed->find("known-answer test failed"), std::string::npos);
  EXPECT_NE(header->find("note"), std::string::npos);
}

TEST(TableWriter, ProblemsAreListedUnderTheTable) {
  const auto lines = lines_of(fixture::make_run(3));
  size_t header_index = lines.size(), problems_index = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("operation", 0) == 0) header_index = i;
    if (lines[i] == "problems:") problems_index = i;
  }
  ASSERT_LT(header_index, problems_index);
  ASSERT_NE(line_with(lines, "  broken on sim-m33: fault hardfault at 0x00001234 in foo"), nullptr);
  ASSERT_NE(line_with(lines, "ecdsa_p256_sign known-answer test FAIL"), nullptr);
  for (const auto& line : lines) EXPECT_TRUE(line.empty() || line.back() != ' ') << line;
}

// Terminal columns of UTF-8 `text` (one per code point, as the table counts them).
size_t width_of(const std::string& text) { return column_of(text, text.size()); }

TEST(TableWriter, CompactByDefaultEveryColumnWithWide) {
  const auto compact = lines_of(fixture::make_run(2));
  const auto* header = line_with(compact, "operation", "config");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->rfind("operation", 0), 0u) << *header;  // operation first
  for (const char* column : {"cycles", "µs", "ratio", "stack B", "heap B", "KAT", "note"})
    EXPECT_NE(header->find(column), std::string::npos) << column << " in: " << *header;
  for (const char* column : {"p99", "median [cycles]", "max [cycles]", "instructions", "allocs"})
    EXPECT_EQ(header->find(column), std::string::npos) << column << " in: " << *header;
  EXPECT_EQ(line_with(compact, "4,000,100"), nullptr);  // the max is a wide column
  // The verdict only; the failed vector is named under the table.
  const auto* failed = line_with(compact, "ecdsa_p256_sign", "mbedtls-no-nist-optim");
  ASSERT_NE(failed, nullptr);
  EXPECT_NE(failed->find(" FAIL "), std::string::npos) << *failed;
  EXPECT_EQ(failed->find("rfc6979"), std::string::npos) << *failed;
  EXPECT_NE(line_with(compact, "ecdsa_p256_sign known-answer test FAIL: rfc6979-a.2.5-sha256"),
            nullptr);

  const auto wide = lines_of(fixture::make_run(2), TableOptions{true, 0});
  header = line_with(wide, "configuration", "operation");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->rfind("configuration", 0), 0u) << *header;
  for (const char* column : {"p99 [cycles]", "min [cycles]", "max [cycles]", "n",
                             "instructions (median)", "peak stack [bytes]", "heap peak [bytes]",
                             "allocs"})
    EXPECT_NE(header->find(column), std::string::npos) << column << " in: " << *header;
}

TEST(TableWriter, FitsTheTerminalByShorteningNamesNotNumbers) {
  model::RunResult run = fixture::make_run(2);
  run.images[1].configuration = "mbedtls-no-nist-optim-with-a-long-name.newlib-nano";
  const size_t natural = width_of(*line_with(lines_of(run), "sha256_1k", "newlib-nano"));
  const size_t width = 80;
  ASSERT_GT(natural, width);
  const auto lines = lines_of(run, TableOptions{false, width});
  const auto* header = line_with(lines, "operation", "config");
  ASSERT_NE(header, nullptr);
  const size_t note_column = column_of(*header, header->find("note"));
  ASSERT_LE(note_column - 2, width);  // the columns before the notes' gap fit
  // Only the table's last column, the notes, may run past the width; the lines under the
  // table wrap.
  bool in_table = false;
  for (const auto& line : lines) {
    if (&line == header) in_table = true;
    if (line.empty()) in_table = false;
    // A table line that reaches the note column fits up to it (asserted above).
    if (in_table && width_of(line) > note_column) continue;
    EXPECT_LE(width_of(line), width) << line;
  }
  const auto* shortened = line_with(lines, "sha256_1k", "…");
  ASSERT_NE(shortened, nullptr);
  EXPECT_NE(shortened->find(" mbedtl…"), std::string::npos) << *shortened;
  EXPECT_NE(shortened->find("…-nano "), std::string::npos) << *shortened;
  EXPECT_NE(shortened->find("2,560"), std::string::npos) << *shortened;
  EXPECT_NE(line_with(lines, "ecdsa", "4,000,000"), nullptr);  // numbers whole
  // Without a width (a pipe or a file) the names stay whole.
  EXPECT_NE(line_with(lines_of(run), run.images[1].configuration), nullptr);
}

}  // namespace
}  // namespace fathom::report
