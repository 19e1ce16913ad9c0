#include "history/trend.h"

#include <gtest/gtest.h>

namespace fathom::history {
namespace {

RunSummary run(int64_t id, std::string suite, std::string name = "") {
  RunSummary r;
  r.id = id;
  r.suite = std::move(suite);
  r.name = std::move(name);
  r.timestamp_utc = "2026-12-0" + std::to_string(id) + "T10:00:00Z";
  if (id == 3) {
    r.git_revision = "0123456789abcdef";
    r.git_dirty = true;
  }
  return r;
}

HistoryRow row(int64_t run_id, std::string configuration, std::string operation,
               std::optional<double> value) {
  HistoryRow h;
  h.run_id = run_id;
  h.configuration = std::move(configuration);
  h.board = "sim-m33";
  h.operation = std::move(operation);
  h.value = value;
  return h;
}

TEST(Trend, KeepsTheSuitesRunsAndOneSeriesPerImageAndOperation) {
  const std::vector<RunSummary> runs{run(1, "default"), run(2, "pq"), run(3, "default", "nightly")};
  const std::vector<HistoryRow> rows{
      row(1, "mbedtls", "sha256_1k", 100), row(1, "wolfssl", "sha256_1k", 90),
      row(2, "mbedtls", "sha256_1k", 5),  // run 2 is another suite's
      row(3, "mbedtls", "sha256_1k", 110), row(3, "wolfssl", "sha256_1k", std::nullopt),
      row(3, "mbedtls", "hmac_sha256", 7)};
  const auto t = trend_json("cycles", "default", runs, rows, 3);
  EXPECT_EQ(t["metric"], "cycles");
  EXPECT_EQ(t["current_run"], 3);
  ASSERT_EQ(t["runs"].size(), 2u);
  EXPECT_EQ(t["runs"][0]["id"], 1);
  EXPECT_TRUE(t["runs"][0]["git_revision"].is_null());
  EXPECT_EQ(t["runs"][1]["name"], "nightly");
  EXPECT_EQ(t["runs"][1]["git_revision"], "0123456789abcdef");
  EXPECT_EQ(t["runs"][1]["git_dirty"], true);
  ASSERT_EQ(t["series"].size(), 3u);
  const auto& mbed = t["series"][0];
  EXPECT_EQ(mbed["configuration"], "mbedtls");
  EXPECT_EQ(mbed["operation"], "sha256_1k");
  ASSERT_EQ(mbed["points"].size(), 2u);  // runs 1 and 3, not the pq run
  EXPECT_EQ(mbed["points"][0]["run"], 1);
  EXPECT_EQ(mbed["points"][0]["value"], 100.0);
  EXPECT_EQ(mbed["points"][1]["value"], 110.0);
  const auto& wolf = t["series"][1];
  EXPECT_EQ(wolf["configuration"], "wolfssl");
  EXPECT_TRUE(wolf["points"][1]["value"].is_null());  // not measured: no value, not 0
  EXPECT_EQ(t["series"][2]["operation"], "hmac_sha256");
  EXPECT_EQ(t["series"][2]["points"].size(), 1u);
}

TEST(Trend, AResultNotStoredHasNoCurrentRun) {
  const auto t = trend_json("stack", "default", {run(1, "default")}, {}, std::nullopt);
  EXPECT_TRUE(t["current_run"].is_null());
  EXPECT_EQ(t["runs"].size(), 1u);
  EXPECT_TRUE(t["series"].empty());
}

}  // namespace
}  // namespace fathom::history
