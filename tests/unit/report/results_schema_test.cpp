// docs/results.schema.json describes what `fathom run --format json` writes (JsonWriter): the
// fully populated run (every optional set, every KAT status, a fault, a cross-check, a shard,
// both kinds of warning) and the run with every optional empty validate against it, and a key
// the schema does not know is rejected. Validated with Python's jsonschema
// (tests/e2e/tools/check_schema.py, Debian python3-jsonschema); skipped without it.
// tests/e2e/test_results_schema.sh validates real runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../model/full_run_fixture.h"
#include "report/json_writer.h"
#include "util/source_dir.h"
#include "util/subprocess.h"

namespace fathom::report {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// The full run with what full_run() leaves out: the target, a cross-check, a shard, an
// operation deeper than its stack reserve and a fixed-input one whose samples differ.
model::RunResult everything() {
  model::RunResult run = model::fixture::full_run();
  model::ImageResult& img = run.images[0];
  img.provenance.target = "qemu";
  img.provenance.target_details = {{"qemu_version", "7.2.0"}};
  img.cross_check = model::CrossCheck{"sim", 2, {"sha256_1k run 1: 640 vs 641 instructions"}, 1};
  model::OperationResult deep = model::fixture::full_operation("mldsa44_keygen");
  deep.not_timed.clear();
  deep.error.clear();
  deep.distinct_inputs = 0;        // fixed input, samples differ: a samples-differ warning
  deep.peak_stack_bytes = 40'000;  // above the 32 KiB reserve
  img.operations.push_back(deep);
  model::ShardInfo shard;
  shard.index = 2;
  shard.count = 3;
  shard.selection_sha256 = std::string(64, 'e');
  shard.selection = model::ShardSelection{"device",
                                          "suites/device.toml",
                                          std::string(64, 'f'),
                                          {{"mbedtls.newlib-nano.O2", "sim-m33"}},
                                          3,
                                          1,
                                          {"sha256_1k"},
                                          1'000'000'000,
                                          "block",
                                          "qemu",
                                          "sim"};
  run.shard = shard;
  return run;
}

Json written(const model::RunResult& run) {
  std::ostringstream out;
  JsonWriter().write(run, out);
  return Json::parse(out.str());
}

class ResultsSchema : public ::testing::Test {
 protected:
  void SetUp() override {
    // Debian's Python has python3-jsonschema (scripts/setup.sh), whatever python3 PATH finds.
    auto probe = util::run_process({"/usr/bin/python3", "-c", "import jsonschema"});
    if (!probe || probe->exit_code != 0)
      GTEST_SKIP() << "/usr/bin/python3 has no jsonschema (apt-get install python3-jsonschema)";
    dir_ = fs::temp_directory_path() / ("fathom-results-schema-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // check_schema.py's exit code and output for `docs` (written to files), with `flags` first.
  std::pair<int, std::string> check(const std::vector<Json>& docs,
                                    const std::vector<std::string>& flags = {}) {
    const std::string src = util::source_dir();
    std::vector<std::string> argv = {"/usr/bin/python3", src + "/tests/e2e/tools/check_schema.py"};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.push_back(src + "/docs/results.schema.json");
    for (size_t i = 0; i < docs.size(); ++i) {
      const fs::path file = dir_ / ("doc" + std::to_string(i) + ".json");
      std::ofstream(file) << docs[i].dump(2);
      argv.push_back(file.string());
    }
    auto ran = util::run_process(argv);
    if (!ran) return {-1, ran.error().message};
    return {ran->exit_code, ran->stdout_text + ran->stderr_text};
  }

  fs::path dir_;
};

TEST_F(ResultsSchema, TheFullyPopulatedAndTheEmptyRunValidate) {
  const Json full = written(everything());
  // Every branch of the schema is exercised: both warnings, a shard, a fault, a cross-check.
  ASSERT_EQ(full["warnings"].size(), 2u) << full["warnings"];
  EXPECT_EQ(full["warnings"][0]["kind"], "stack-reserve-exceeded");
  EXPECT_EQ(full["warnings"][1]["kind"], "samples-differ");
  ASSERT_TRUE(full["shard"].is_object());
  ASSERT_TRUE(full["images"][1]["fault"].is_object());
  ASSERT_TRUE(full["images"][0]["cross_check"].is_object());
  const auto [code, output] = check({full, written(model::fixture::empty_run())});
  EXPECT_EQ(code, 0) << output;
}

TEST_F(ResultsSchema, RejectsAKeyItDoesNotKnowAndAWrongType) {
  const Json full = written(everything());
  Json unknown_key = full;
  unknown_key["images"][0]["operations"][0]["cycles_per_byte"] = 1.5;
  Json unknown_top = full;
  unknown_top["host_seconds"] = 2.0;
  Json wrong_type = full;
  wrong_type["images"][0]["operations"][0]["statistics"]["cycles"]["median"] = "1281";
  Json bad_status = full;
  bad_status["images"][0]["operations"][0]["kat"]["status"] = "pass";
  Json figures_of_a_failed_kat = full;  // images[1]'s operation failed its KAT
  figures_of_a_failed_kat["images"][1]["operations"][0]["samples"]["cycles"] = {1280};
  const auto [code, output] = check(
      {unknown_key, unknown_top, wrong_type, bad_status, figures_of_a_failed_kat}, {"--invalid"});
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find("cycles_per_byte"), std::string::npos) << output;
  EXPECT_NE(output.find("host_seconds"), std::string::npos) << output;
}

}  // namespace
}  // namespace fathom::report
