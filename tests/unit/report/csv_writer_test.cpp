#include "report/csv_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "run_fixture.h"

namespace fathom::report {
namespace {

using Records = std::vector<std::vector<std::string>>;

// A strict RFC 4180 reader: CRLF record ends, quoted fields with doubled quotes.
Records parse_csv(const std::string& text) {
  Records records(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      EXPECT_TRUE(field.empty() && !was_quoted) << "quote inside an unquoted field";
      quoted = was_quoted = true;
    } else if (c == ',') {
      records.back().push_back(field);
      field.clear();
      was_quoted = false;
    } else if (c == '\r') {
      EXPECT_EQ(text[i + 1], '\n');
      ++i;
      records.back().push_back(field);
      field.clear();
      was_quoted = false;
      records.emplace_back();
    } else {
      EXPECT_NE(c, '\n') << "bare LF outside quotes";
      field += c;
    }
  }
  EXPECT_FALSE(quoted);
  EXPECT_TRUE(records.back().empty() && field.empty()) << "last record must end with CRLF";
  records.pop_back();
  return records;
}

Records write(const model::RunResult& run) {
  std::ostringstream out;
  CsvWriter().write(run, out);
  return parse_csv(out.str());
}

size_t column(const Records& records, const std::string& name) {
  const auto& header = records.front();
  return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
}

TEST(CsvWriter, HeaderHasUnitsAndEveryRowItsColumnCount) {
  const auto records = write(fixture::make_run(3));
  ASSERT_EQ(records.size(), 6u);  // header + 5 rows (the broken image gets one)
  for (const auto& record : records) EXPECT_EQ(record.size(), records[0].size());
  for (const char* name : {"cycles_median", "cycles_p99", "time_us", "peak_stack_bytes",
                           "heap_peak_bytes", "instructions_median", "clock_hz", "libc"})
    EXPECT_LT(column(records, name), records[0].size()) << name;
  EXPECT_EQ(records[1][column(records, "libc")], "newlib-nano");
  // The broken image's error, with a comma and quotes, survives quoting.
  EXPECT_EQ(records[5][column(records, "image_error")],
            "image stopped: \"hardfault\", see console, log");
}

TEST(CsvWriter, NumbersArePlainAndRatioIsRight) {
  const auto records = write(fixture::make_run(2));
  const size_t ratio = column(records, "ratio");
  ASSERT_LT(ratio, records[0].size());
  const size_t median = column(records, "cycles_median");
  EXPECT_EQ(records[1][column(records, "operation")], "sha256_1k");
  EXPECT_EQ(records[1][median], "1280");
  EXPECT_EQ(records[1][ratio], "1.0000");
  EXPECT_EQ(records[1][column(records, "time_us")], "10.000");
  EXPECT_EQ(records[2][median], "4000000");
  EXPECT_EQ(records[3][ratio], "2.0000");
  // The failed KAT: no figures, the vector named.
  EXPECT_EQ(records[4][column(records, "kat")], "fail");
  EXPECT_EQ(records[4][column(records, "kat_failed_vectors")], "rfc6979-a.2.5-sha256");
  EXPECT_EQ(records[4][median], "");
  EXPECT_EQ(records[4][ratio], "");
  EXPECT_EQ(records[4][column(records, "peak_stack_bytes")], "");
}

TEST(CsvWriter, NoRatioColumnWithOneConfiguration) {
  const auto records = write(fixture::make_run(1));
  EXPECT_EQ(column(records, "ratio"), records[0].size());
  for (const auto& record : records) EXPECT_EQ(record.size(), records[0].size());
}

}  // namespace
}  // namespace fathom::report
