// The primitive share in the run table, CSV and JSON (report/summary_grid.h, csv_writer.h,
// json_writer.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/csv_writer.h"
#include "report/json_writer.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

// The fixture with shares on the baseline's two operations; the second image's ecdsa KAT
// failed, and its (poisoned) share must not appear anywhere.
model::RunResult run_with_shares() {
  model::RunResult run = fixture::make_run(2);
  run.images[0].operations[0].primitive_share = {
      {"SHA-2", 0.9712}, {"bignum", 0.0}, {"RNG", 0.004}};
  run.images[0].operations[1].primitive_share = {
      {"SHA-2", 0.0213}, {"bignum", 0.9301}, {"RNG", 0.0302}, {"AES", 0.0251}};
  run.images[1].operations[1].primitive_share = {{"bignum", 0.777}};
  return run;
}

using fixture::wide_table;
using fixture::written;

std::string line_with(const std::string& text, const std::string& a, const std::string& b) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(a) != std::string::npos && line.find(b) != std::string::npos) return line;
  return "";
}

TEST(PrimitiveShareOutput, TableListsTheLargestGroupsAtOnePercentOrMore) {
  const std::string table = wide_table(run_with_shares());
  EXPECT_NE(table.find("primitive share"), std::string::npos) << table;
  EXPECT_NE(line_with(table, "mbedtls ", "sha256_1k").find("SHA-2 97%"), std::string::npos)
      << table;
  const std::string ecdsa = line_with(table, "mbedtls ", "ecdsa_p256_sign");
  // At most three groups, largest first; RNG 0.4% is left out of sha256_1k's cell.
  EXPECT_NE(ecdsa.find("bignum 93%, RNG 3%, AES 3%"), std::string::npos) << table;
  EXPECT_EQ(ecdsa.find("SHA-2"), std::string::npos) << table;
  EXPECT_EQ(table.find("RNG 0%"), std::string::npos) << table;
  EXPECT_EQ(table.find("78%"), std::string::npos) << "failed KAT shows a share:\n" << table;
}

TEST(PrimitiveShareOutput, TableHasNoColumnWithoutShares) {
  const std::string table = wide_table(fixture::make_run(2));
  EXPECT_EQ(table.find("primitive share"), std::string::npos) << table;
}

TEST(PrimitiveShareOutput, TableNeverRoundsUpToTheWholeOperation) {
  model::RunResult run = fixture::make_run(1);
  run.images[0].operations[0].primitive_share = {{"SHA-2", 0.998}};
  run.images[0].operations[1].primitive_share = {{"bignum", 0.001}};
  const std::string table = wide_table(run);
  EXPECT_NE(line_with(table, "mbedtls", "sha256_1k").find("SHA-2 99%"), std::string::npos) << table;
  EXPECT_NE(line_with(table, "mbedtls", "ecdsa_p256_sign").find("<1%"), std::string::npos) << table;
}

TEST(PrimitiveShareOutput, CsvHasOneFractionColumnPerGroup) {
  const std::string csv = written<CsvWriter>(run_with_shares());
  const std::string header = csv.substr(0, csv.find("\r\n"));
  EXPECT_NE(header.find(",primitive_share_AES,primitive_share_RNG,primitive_share_SHA-2,"
                        "primitive_share_bignum"),
            std::string::npos)
      << header;
  EXPECT_NE(line_with(csv, "mbedtls,", "ecdsa_p256_sign").find(",0.0251,0.0302,0.0213,0.9301"),
            std::string::npos)
      << csv;
  // A group the row lacks is an empty field; the failed KAT has none.
  EXPECT_NE(line_with(csv, "mbedtls,", "sha256_1k").find(",,0.0040,0.9712,0.0000"),
            std::string::npos)
      << csv;
  EXPECT_EQ(csv.find("0.7770"), std::string::npos) << csv;
}

TEST(PrimitiveShareOutput, JsonHasTheShareObject) {
  const auto doc = nlohmann::json::parse(written<JsonWriter>(run_with_shares()));
  const auto& ops = doc["images"][0]["operations"];
  EXPECT_DOUBLE_EQ(ops[1]["primitive_share"]["bignum"].get<double>(), 0.9301);
  EXPECT_EQ(ops[1]["primitive_share"].size(), 4u);
  // The failed KAT's share is not written.
  EXPECT_TRUE(doc["images"][1]["operations"][1]["primitive_share"].empty());
  // No share: an empty object, not a missing key.
  const auto plain = nlohmann::json::parse(written<JsonWriter>(fixture::make_run(1)));
  EXPECT_TRUE(plain["images"][0]["operations"][0]["primitive_share"].is_object());
  EXPECT_TRUE(plain["images"][0]["operations"][0]["primitive_share"].empty());
}

}  // namespace
}  // namespace fathom::report
