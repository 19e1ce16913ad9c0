#include "report/table_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "run_fixture.h"

namespace fathom::report {
namespace {

std::vector<std::string> lines_of(const model::RunResult& run) {
  std::ostringstream out;
  TableWriter().write(run, out);
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
  const auto* header = line_with(single, "configuration", "operation");
  ASSERT_NE(header, nullptr);
  EXPECT_EQ(header->find(" ratio"), std::string::npos);

  const auto pair = lines_of(fixture::make_run(2));
  header = line_with(pair, "configuration", "operation");
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
  const auto lines = lines_of(fixture::make_run(2));
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
  const auto lines = lines_of(fixture::make_run(2));
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
    if (lines[i].rfind("configuration", 0) == 0) header_index = i;
    if (lines[i] == "problems:") problems_index = i;
  }
  ASSERT_LT(header_index, problems_index);
  ASSERT_NE(line_with(lines, "  broken on sim-m33: fault hardfault at 0x00001234 in foo"), nullptr);
  ASSERT_NE(line_with(lines, "ecdsa_p256_sign known-answer test FAIL"), nullptr);
  for (const auto& line : lines) EXPECT_TRUE(line.empty() || line.back() != ' ') << line;
}

}  // namespace
}  // namespace fathom::report
