#include "report/text_table.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace fathom::report {
namespace {

size_t width_of(const std::string& text) { return display_width(text); }

std::vector<std::string> lines_of(const TextTable& table, size_t width,
                                  const std::string& indent = "") {
  std::ostringstream out;
  table.write(out, width, indent);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TextTable, AlignsPadsAndLetsTheLastColumnRunOn) {
  TextTable table({{"function", false, ColumnFit::kShrink},
                   {"cycles", true, ColumnFit::kFixed},
                   {"note", false, ColumnFit::kOverflow}});
  table.add_row({"mbedtls_mpi_core_montmul", "1,234,567", "the hot loop of every scalar mult"});
  table.add_row({"f", "9"});  // a missing cell is empty
  const auto lines = lines_of(table, 0, "  ");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0], "  function                     cycles  note");
  EXPECT_EQ(lines[1], "  ------------------------  ---------  ----");
  EXPECT_EQ(lines[2], "  mbedtls_mpi_core_montmul  1,234,567  the hot loop of every scalar mult");
  EXPECT_EQ(lines[3], "  f                                 9");  // no trailing blanks
  // Fitted to 30 columns with the indent: the name gives way, the number and the note do not.
  const auto fitted = lines_of(table, 30, "  ");
  EXPECT_EQ(fitted[2], "  mbedtls_…_montmul  1,234,567  the hot loop of every scalar mult");
  // Everything before the note column's gap is within the width.
  EXPECT_EQ(width_of(fitted[2].substr(0, fitted[2].find("  the hot"))), 30u);
}

TEST(TextTable, ShortenedNamesStayDistinct) {
  TextTable table({{"configuration", false, ColumnFit::kShrink}, {"cycles", true}});
  table.add_row({"mbedtls-no-nist-optim.newlib-nano", "13,375,822"});
  table.add_row({"mbedtls-sha256-smaller.newlib-nano", "80,853,902"});
  const auto lines = lines_of(table, 20);
  ASSERT_EQ(lines.size(), 4u);
  // 20 columns would leave "mbedtl…b-nano" for both: the column keeps the width that tells
  // them apart ("mbedtls-n…" / "mbedtls-s…"), wider than asked.
  EXPECT_NE(lines[2].substr(0, lines[2].find("…")), lines[3].substr(0, lines[3].find("…")));
  EXPECT_GT(width_of(lines[2]), 20u);
  EXPECT_EQ(lines[2].rfind("mbedtls-n", 0), 0u) << lines[2];
}

TEST(TextTable, ShortenMiddleKeepsHeadAndTail) {
  EXPECT_EQ(shorten_middle("mbedtls", 12), "mbedtls");
  EXPECT_EQ(shorten_middle("mbedtls-no-nist-optim", 12), "mbedtl…optim");
  EXPECT_EQ(width_of(shorten_middle("mbedtls-no-nist-optim", 12)), 12u);
  EXPECT_EQ(shorten_middle("mbedtls-no-nist-optim.newlib-nano", 10), "mbedt…nano");
  EXPECT_EQ(shorten_middle("aµµµµb", 4), "aµ…b");  // whole code points
  EXPECT_EQ(shorten_middle("abc", 1), "…");
}

TEST(TextTable, FitWidthsGivesWayOnlyWhereAllowed) {
  const std::vector<ColumnFit> fit = {ColumnFit::kShrink, ColumnFit::kFixed, ColumnFit::kShrink,
                                      ColumnFit::kOverflow};
  // 30 + 11 + 20 + gaps (2 x 2; the overflow column does not count) = 65.
  EXPECT_EQ(fit_widths({30, 11, 20, 40}, {9, 15, 3, 4}, fit, 0),
            (std::vector<size_t>{30, 11, 20, 40}));
  EXPECT_EQ(fit_widths({30, 11, 20, 40}, {9, 15, 3, 4}, fit, 55),
            (std::vector<size_t>{20, 11, 20, 40}));
  // Down to the minimum (or the header), then no further: wider than asked.
  EXPECT_EQ(fit_widths({30, 11, 20, 40}, {9, 15, 13, 4}, fit, 20),
            (std::vector<size_t>{kMinShrunkWidth, 11, 13, 40}));
  static_assert(kMinShrunkWidth == 10);
}

TEST(TextTable, WrapWordsKeepsTheIndent) {
  EXPECT_EQ(wrap_words("  alpha beta gamma", 12, 4),
            (std::vector<std::string>{"  alpha beta", "    gamma"}));
  EXPECT_EQ(wrap_words("short", 12, 4), (std::vector<std::string>{"short"}));
  EXPECT_EQ(wrap_words("a verylongwordthatstays b", 8, 2),
            (std::vector<std::string>{"a", "  verylongwordthatstays", "  b"}));
  EXPECT_EQ(wrap_words("no limit at all", 0, 2), (std::vector<std::string>{"no limit at all"}));
  // Aligned figures keep their spacing; only the break point's spaces go.
  EXPECT_EQ(wrap_words("    key  108,976,592 cycles  stack  1,568 B  ecdh_keygen + ecdh_shared", 50, 6),
            (std::vector<std::string>{"    key  108,976,592 cycles  stack  1,568 B",
                                      "      ecdh_keygen + ecdh_shared"}));
}

}  // namespace
}  // namespace fathom::report
