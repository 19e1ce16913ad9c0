// Distinct inputs and object sizes in the reports (report/summary_grid.h, table_writer.h,
// markdown_writer.h, csv_writer.h, json_writer.h) and back from a results file
// (compare/result_file.h, model/run_result_json.h).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "compare/result_file.h"
#include "report/csv_writer.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

// The fixture's baseline ecdsa_p256_sign timed over 3 distinct inputs, with object sizes.
model::RunResult run_with_inputs() {
  model::RunResult run = fixture::make_run(1);
  auto& sign = run.images[0].operations[1];
  sign.distinct_inputs = 3;
  sign.object_bytes = {{"signature", 64}, {"public_key", 65}};
  return run;
}

using fixture::wide_table;
using fixture::written;

TEST(DistinctInputsOutput, TableMarksTheRowAndExplainsItUnderTheTable) {
  const std::string table = wide_table(run_with_inputs());
  EXPECT_NE(table.find(" 3* "), std::string::npos) << table;
  EXPECT_NE(table.find("\n* ecdsa_p256_sign (mbedtls): 3 distinct inputs, one per timed run; "
                       "median/p99/min/max are over them\n"),
            std::string::npos)
      << table;
  // Without distinct inputs: no mark, no footnote.
  const std::string plain = wide_table(fixture::make_run(1));
  EXPECT_EQ(plain.find('*'), std::string::npos) << plain;
}

TEST(DistinctInputsOutput, MarkdownHasTheFootnote) {
  const std::string md = written<MarkdownWriter>(run_with_inputs());
  EXPECT_NE(md.find("* ecdsa_p256_sign (mbedtls): 3 distinct inputs"), std::string::npos) << md;
}

TEST(DistinctInputsOutput, CsvHasADistinctInputsColumn) {
  const std::string csv = written<CsvWriter>(run_with_inputs());
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_NE(header.find(",runs,distinct_inputs,cycles_median,"), std::string::npos) << header;
  EXPECT_NE(csv.find("ecdsa_p256_sign,pass,,3,3,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("sha256_1k,pass,,3,,"), std::string::npos) << csv;
}

TEST(DistinctInputsOutput, JsonCarriesBothAndReadsBack) {
  const std::string text = written<JsonWriter>(run_with_inputs());
  const auto doc = nlohmann::json::parse(text);
  const auto& ops = doc["images"][0]["operations"];
  EXPECT_TRUE(ops[0]["distinct_inputs"].is_null());
  EXPECT_EQ(ops[0]["object_bytes"], nlohmann::json::object());
  EXPECT_EQ(ops[1]["distinct_inputs"], 3);
  EXPECT_EQ(ops[1]["object_bytes"], (nlohmann::json{{"public_key", 65}, {"signature", 64}}));

  auto read = compare::parse_result_json(text, "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  const auto& sign = read->images[0].operations[1];
  EXPECT_EQ(sign.distinct_inputs, 3u);
  EXPECT_EQ(sign.object_bytes, (std::map<std::string, uint64_t>{{"public_key", 65},
                                                                {"signature", 64}}));
  EXPECT_EQ(read->images[0].operations[0].distinct_inputs, 0u);
}

TEST(DistinctInputsOutput, ObjectBytesDecodingRefusesBadNamesAndValues) {
  using Json = nlohmann::ordered_json;
  const Json doc = Json::parse(written<JsonWriter>(run_with_inputs()));
  auto with_objects = [&](const Json& objects) {
    Json edited = doc;
    edited["images"][0]["operations"][1]["object_bytes"] = objects;
    return compare::parse_result_json(edited.dump(), "r.json");
  };
  auto none = with_objects(nullptr);  // null: none, as in files made before object sizes
  ASSERT_TRUE(none.has_value()) << none.error().message;
  EXPECT_TRUE(none->images[0].operations[1].object_bytes.empty());
  auto ok = with_objects(Json::parse(R"({"ciphertext":768})"));
  ASSERT_TRUE(ok.has_value()) << ok.error().message;
  EXPECT_EQ(ok->images[0].operations[1].object_bytes.at("ciphertext"), 768u);
  for (const char* bad : {R"([1])", R"({"Public Key":1})", R"({"":1})", R"({"pk":-1})",
                          R"({"pk":1.5})", R"({"pk":"1"})"}) {
    auto r = with_objects(Json::parse(bad));
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_EQ(r.error().message.rfind("r.json: images[0].operations[1].object_bytes", 0), 0u)
        << r.error().message;
  }
}

}  // namespace
}  // namespace fathom::report
