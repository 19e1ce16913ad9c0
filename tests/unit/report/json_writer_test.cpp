#include "report/json_writer.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "compare/result_file.h"
#include "model/run_result_json.h"
#include "run_fixture.h"
#include "util/source_dir.h"

namespace fathom::report {
namespace {

nlohmann::ordered_json write(const model::RunResult& run, std::string* text = nullptr) {
  std::ostringstream out;
  JsonWriter().write(run, out);
  if (text) *text = out.str();
  return nlohmann::ordered_json::parse(out.str());  // throws (fails the test) if invalid
}

TEST(JsonWriter, HasSchemaVersionFirstAndEveryImage) {
  std::string text;
  const auto doc = write(fixture::make_run(3), &text);
  EXPECT_EQ(doc.begin().key(), "schema_version");
  EXPECT_EQ(doc["schema_version"], model::RunResult::kSchemaVersion);
  EXPECT_EQ(doc["suite"], "default");
  ASSERT_EQ(doc["images"].size(), 3u);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);
  for (const auto& image : doc["images"])
    for (const char* key : {"configuration", "board", "completed", "error", "fault", "size",
                            "totals", "provenance", "operations"})
      EXPECT_TRUE(image.contains(key)) << key;
  const auto& broken = doc["images"][2];
  EXPECT_EQ(broken["completed"], false);
  EXPECT_EQ(broken["fault"]["kind"], "hardfault");
  EXPECT_EQ(broken["fault"]["pc"], 0x1234);
  EXPECT_TRUE(doc["images"][0]["fault"].is_null());
}

TEST(JsonWriter, ProvenanceHasEveryField) {
  const auto doc = write(fixture::make_run(2));
  const auto& p = doc["images"][1]["provenance"];
  for (const char* key :
       {"tool_version", "tool_git_revision", "compiler", "cflags", "board", "core", "clock_hz",
        "stack_reserve_bytes", "library", "library_version", "libc", "config_defines",
        "config_undefines", "source_sha256", "timing_model", "target", "target_details",
        "elf_sha256", "runs", "warmup",
        "isolation", "run_order", "reused_from"})
    EXPECT_TRUE(p.contains(key)) << key;
  EXPECT_EQ(p.size(), 23u);  // a new Provenance field must be added here and in the writer
  EXPECT_EQ(p["clock_hz"], 128000000);
  EXPECT_EQ(p["libc"], "newlib-nano");
  EXPECT_EQ(p["config_undefines"][0], "MBEDTLS_ECP_NIST_OPTIM");
}

TEST(JsonWriter, OperationsCarrySamplesStatisticsAndKat) {
  const auto doc = write(fixture::make_run(2));
  const auto& sha = doc["images"][0]["operations"][0];
  EXPECT_EQ(sha["operation"], "sha256_1k");
  EXPECT_EQ(sha["kat"]["status"], "passed");
  EXPECT_EQ(sha["samples"]["cycles"], (nlohmann::json{1280, 1280, 1290}));
  EXPECT_EQ(sha["samples"]["instructions"].size(), 3u);
  EXPECT_EQ(sha["statistics"]["cycles"]["median"], 1280.0);
  EXPECT_EQ(sha["statistics"]["cycles"]["count"], 3);
  EXPECT_EQ(sha["memory"]["peak_stack_bytes"], 1024);

  const auto& failed = doc["images"][1]["operations"][1];
  EXPECT_EQ(failed["kat"]["status"], "failed");
  EXPECT_EQ(failed["kat"]["vectors"][0]["name"], "rfc6979-a.2.5-sha256");
  EXPECT_EQ(failed["kat"]["vectors"][0]["passed"], false);
  EXPECT_TRUE(failed["samples"]["cycles"].empty());
  EXPECT_TRUE(failed["samples"]["instructions"].empty());
  EXPECT_TRUE(failed["statistics"]["cycles"].is_null());
  EXPECT_TRUE(failed["memory"]["peak_stack_bytes"].is_null());
  EXPECT_EQ(failed["error"], "known-answer test failed");
}

TEST(JsonWriter, InvalidUtf8InConsoleDoesNotThrow) {
  auto run = fixture::make_run(1);
  run.images[0].console_log = {std::string("bad \xff byte")};
  EXPECT_EQ(write(run)["images"][0]["console_log"].size(), 1u);
}

// The file an older fathom wrote for the fully populated run (tests/fixtures/previous_results,
// made by its generate.cpp from revision ad1dc5a) reads, and is written again with the same
// keys in the same order and the same values, plus only the keys added since (the target that
// ran the image, its details, the cross-check, the shard): the keys and shapes users' scripts
// read did not change, and nothing was lost on the way.
TEST(JsonWriter, WritesWhatThePreviousWriterWrote) {
  std::ifstream in(std::string(fathom::util::source_dir()) + "/tests/fixtures/previous_results/results.json",
                   std::ios::binary);
  ASSERT_TRUE(in.good());
  const std::string previous{std::istreambuf_iterator<char>(in), {}};
  auto read = compare::parse_result_json(previous, "results.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  std::ostringstream again;
  JsonWriter().write(*read, again);
  auto written = nlohmann::ordered_json::parse(again.str());
  for (auto& image : written["images"]) {
    EXPECT_EQ(image["cross_check"], nullptr);
    image.erase("cross_check");
    EXPECT_EQ(image["provenance"]["target"], "");
    image["provenance"].erase("target");
    image["provenance"].erase("target_details");
    // Added since: before it, every instruction was timed.
    EXPECT_EQ(image["totals"]["untimed_instructions"], 0);
    image["totals"].erase("untimed_instructions");
    // Added since, with nothing recorded in the previous file: null.
    for (auto& op : image["operations"])
      for (const char* key : {"runs", "runs_reason", "samples_identical"}) {
        EXPECT_EQ(op[key], nullptr) << key;
        op.erase(key);
      }
  }
  EXPECT_EQ(written["shard"], nullptr);  // added since: a whole run is no shard
  written.erase("shard");
  EXPECT_EQ(written, nlohmann::ordered_json::parse(previous));
}

// The report adds only its derived keys to the model's JSON: "fastest" after each operation's
// statistics and the top-level "warnings".
TEST(JsonWriter, IsTheModelJsonPlusFastestAndWarnings) {
  const auto run = fixture::make_run(3);
  nlohmann::ordered_json doc = write(run);
  EXPECT_EQ(doc.back(), doc["warnings"]);
  doc.erase("warnings");
  for (auto& image : doc["images"])
    for (auto& op : image["operations"]) {
      auto key = op.begin();
      while (key.key() != "statistics") ++key;
      EXPECT_EQ((++key).key(), "fastest");
      op.erase("fastest");
    }
  EXPECT_EQ(doc, model::to_json(run));
}

}  // namespace
}  // namespace fathom::report
