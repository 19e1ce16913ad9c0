// The fastest mark (report/summary.h): the lowest median wins only when it beats every other
// configuration by more than the noise threshold (model::kNoiseThresholdPercent, compare's
// default --threshold); configurations within it of the lowest are all marked tied, in the
// table, the markdown and the JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/summary.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

// One operation "op" timed in configurations a, b, c, ... with the given medians (one sample
// each).
model::RunResult run_with_medians(const std::vector<uint64_t>& medians) {
  model::RunResult run;
  run.suite = "matrix";
  for (size_t i = 0; i < medians.size(); ++i) {
    auto img = fixture::image(std::string(1, static_cast<char>('a' + i)));
    img.operations.push_back(fixture::passed_op("op", {medians[i]}));
    run.images.push_back(img);
  }
  return run;
}

std::vector<FastestMark> marks(const model::RunResult& run) {
  std::vector<FastestMark> out;
  for (const auto& row : summarize_run(run, RowOrder::kImage).rows) out.push_back(row.fastest);
  return out;
}

using M = FastestMark;

TEST(FastestMark, ALeadWithinTheNoiseIsATie) {
  // 3 cycles of 150,000: 0.002 %.
  EXPECT_EQ(marks(run_with_medians({150'003, 150'000})), (std::vector<M>{M::kTied, M::kTied}));
  // Exactly at the threshold (0.5 % of the lower): still a tie.
  EXPECT_EQ(marks(run_with_medians({100'000, 100'500})), (std::vector<M>{M::kTied, M::kTied}));
}

TEST(FastestMark, ALeadBeyondTheNoiseIsTheFastest) {
  EXPECT_EQ(marks(run_with_medians({100'000, 100'501})), (std::vector<M>{M::kFastest, M::kNone}));
  EXPECT_EQ(marks(run_with_medians({200'000, 100'000, 150'000})),
            (std::vector<M>{M::kNone, M::kFastest, M::kNone}));
}

TEST(FastestMark, EveryConfigurationWithinTheNoiseOfTheLowestIsTied) {
  // b is lowest; a within 0.4 %, c 10 % slower, d within 0.1 %.
  EXPECT_EQ(marks(run_with_medians({100'400, 100'000, 110'000, 100'100})),
            (std::vector<M>{M::kTied, M::kTied, M::kNone, M::kTied}));
  // A single configuration is neither.
  EXPECT_EQ(marks(run_with_medians({100'000})), (std::vector<M>{M::kNone}));
}

using fixture::wide_table;
using fixture::written;

std::string line_starting(const std::string& text, const std::string& start) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(start, 0) == 0) return line;
  return "";
}

TEST(FastestMark, TableAndMarkdownShowTiesAsTies) {
  const auto run = run_with_medians({150'003, 150'000, 300'000});
  const std::string table = wide_table(run);
  EXPECT_NE(line_starting(table, "a ").find(" tie "), std::string::npos) << table;
  EXPECT_NE(line_starting(table, "b ").find(" tie "), std::string::npos) << table;
  EXPECT_EQ(line_starting(table, "c ").find(" tie "), std::string::npos) << table;
  for (const char* row : {"a ", "b ", "c "})  // nobody wins a tie
    EXPECT_EQ(line_starting(table, row).find(" * "), std::string::npos) << table;
  EXPECT_NE(table.find("tie: within 0.5% of the lowest median"), std::string::npos) << table;
  const std::string md = written<MarkdownWriter>(run);
  EXPECT_NE(line_starting(md, "| a ").find("| tie "), std::string::npos) << md;
  EXPECT_NE(line_starting(md, "| b ").find("| tie "), std::string::npos) << md;

  const std::string clear = wide_table(run_with_medians({100'000, 200'000}));
  EXPECT_NE(line_starting(clear, "a ").find(" * "), std::string::npos) << clear;
  EXPECT_EQ(line_starting(clear, "b ").find(" * "), std::string::npos) << clear;
  EXPECT_EQ(clear.find(" tie "), std::string::npos) << clear;
}

TEST(FastestMark, JsonCarriesTheMark) {
  const auto doc =
      nlohmann::json::parse(written<JsonWriter>(run_with_medians({150'003, 150'000, 300'000})));
  EXPECT_EQ(doc["images"][0]["operations"][0]["fastest"], "tied");
  EXPECT_EQ(doc["images"][1]["operations"][0]["fastest"], "tied");
  EXPECT_TRUE(doc["images"][2]["operations"][0]["fastest"].is_null());
  const auto clear =
      nlohmann::json::parse(written<JsonWriter>(run_with_medians({100'000, 200'000})));
  EXPECT_EQ(clear["images"][0]["operations"][0]["fastest"], "fastest");
  EXPECT_TRUE(clear["images"][1]["operations"][0]["fastest"].is_null());
}

}  // namespace
}  // namespace fathom::report
