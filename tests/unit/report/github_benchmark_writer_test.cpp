#include "report/github_benchmark_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "run_fixture.h"

namespace fathom::report {
namespace {

using Json = nlohmann::json;

Json write(const model::RunResult& run, std::string* text = nullptr) {
  std::ostringstream out;
  GithubBenchmarkWriter().write(run, out);
  if (text) *text = out.str();
  return Json::parse(out.str());  // throws (fails the test) if invalid
}

const Json& by_name(const Json& doc, const std::string& name) {
  for (const auto& b : doc)
    if (b["name"] == name) return b;
  throw std::runtime_error("no entry named " + name);
}

std::set<std::string> names(const Json& doc) {
  std::set<std::string> out;
  for (const auto& b : doc) out.insert(b["name"].get<std::string>());
  return out;
}

// github-action-benchmark's customSmallerIsBetter: an array of {name, unit, value, range?,
// extra?}, name and unit strings, value a number; nothing else.
TEST(GithubBenchmarkWriter, IsAnArrayOfTheFormatsObjects) {
  std::string text;
  const auto doc = write(fixture::make_run(3), &text);
  ASSERT_TRUE(doc.is_array());
  EXPECT_EQ(doc.size(), 3u);  // 2 + 1 timed operations
  for (const auto& b : doc) {
    ASSERT_TRUE(b.is_object());
    for (const auto& [key, value] : b.items())
      EXPECT_TRUE(key == "name" || key == "unit" || key == "value" || key == "range" ||
                  key == "extra")
          << key;
    EXPECT_TRUE(b["name"].is_string());
    EXPECT_EQ(b["unit"], "cycles");
    EXPECT_TRUE(b["value"].is_number());
    if (b.contains("range")) {
      EXPECT_TRUE(b["range"].is_string());
    }
    EXPECT_TRUE(b["extra"].is_string());
  }
  EXPECT_EQ(names(doc), (std::set<std::string>{"mbedtls/sha256_1k", "mbedtls/ecdsa_p256_sign",
                                               "mbedtls-no-nist-optim/sha256_1k"}));
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

TEST(GithubBenchmarkWriter, ValueIsTheMedianCyclesWithTheOtherFiguresInExtra) {
  const auto doc = write(fixture::make_run(2));
  const auto& sha = by_name(doc, "mbedtls-no-nist-optim/sha256_1k");
  EXPECT_EQ(sha["value"], 2560.0);  // samples 2560, 2560, 2570
  EXPECT_EQ(sha["range"], "2560 to 2570");
  EXPECT_EQ(sha["extra"],
            "instructions: 1,280\ntime: 20.00 µs at 128 MHz\npeak stack: 1,024 bytes\nheap "
            "peak: 2,048 bytes\ntimed runs: 3\nboard: sim-m33");
  EXPECT_EQ(by_name(doc, "mbedtls/ecdsa_p256_sign")["value"], 4'000'000.0);
}

TEST(GithubBenchmarkWriter, NoRangeWhenEveryRunGaveTheSameCycles) {
  auto run = fixture::make_run(1);
  run.images[0].operations.resize(1);
  auto& op = run.images[0].operations[0];
  op.cycle_samples = {1280, 1280};
  op.cycles = model::summarize(op.cycle_samples);
  op.instructions.reset();
  op.peak_stack_bytes.reset();
  op.heap_peak_bytes.reset();
  run.images[0].provenance.clock_hz = 0;  // no clock: no time line, the cycles still stand
  const auto doc = write(run);
  ASSERT_EQ(doc.size(), 1u);
  EXPECT_FALSE(doc[0].contains("range")) << doc[0];
  EXPECT_EQ(doc[0]["value"], 1280.0);
  EXPECT_EQ(doc[0]["extra"], "timed runs: 2\nboard: sim-m33");
}

// What has no cycles has no entry (no made-up value), and is named for stderr instead.
TEST(GithubBenchmarkWriter, LeavesOutWhatHasNoCyclesAndNamesIt) {
  auto run = fixture::make_run(3);
  model::OperationResult gate = fixture::passed_op("selftest", {5, 5});
  gate.not_timed = "library gate: its known-answer phase is the check";
  run.images[0].operations.push_back(gate);
  model::OperationResult qemu = fixture::passed_op("sha256_64", {100, 100});
  qemu.cycle_samples.clear();
  qemu.cycles.reset();  // instructions only, as QEMU counts
  run.images[0].operations.push_back(qemu);
  std::string text;
  const auto doc = write(run, &text);
  EXPECT_EQ(names(doc), (std::set<std::string>{"mbedtls/sha256_1k", "mbedtls/ecdsa_p256_sign",
                                               "mbedtls-no-nist-optim/sha256_1k"}));
  EXPECT_EQ(text.find(std::to_string(fixture::kPoisonCycles)), std::string::npos);
  EXPECT_EQ(text.find("\"value\": 0"), std::string::npos);
  EXPECT_EQ(github_benchmark_left_out(run),
            (std::vector<std::string>{
                "mbedtls/selftest: not timed: library gate: its known-answer phase is the check",
                "mbedtls/sha256_64: cycles unavailable on this target (QEMU models no cycle "
                "counter)",
                "mbedtls-no-nist-optim/ecdsa_p256_sign: known-answer test failed",
                "broken: image stopped: \"hardfault\", see console, log"}));
  EXPECT_TRUE(github_benchmark_left_out(fixture::make_run(2)).size() == 1u);
  EXPECT_TRUE(github_benchmark_left_out(fixture::make_run(1)).empty());
}

TEST(GithubBenchmarkWriter, BoardJoinsTheNameOnlyWithSeveralBoards) {
  const auto doc = write(fixture::make_run_on_two_boards());
  EXPECT_EQ(names(doc),
            (std::set<std::string>{"mbedtls/sha256_1k@sim-m33", "mbedtls/ecdsa_p256_sign@sim-m33",
                                   "mbedtls/sha256_1k@sim-m4", "mbedtls/ecdsa_p256_sign@sim-m4"}));
  EXPECT_NE(by_name(doc, "mbedtls/sha256_1k@sim-m4")["extra"].get<std::string>().find(
                "time: 20.00 µs at 64 MHz"),
            std::string::npos);
  // The same image twice on one board keeps unique names.
  auto twice = fixture::make_run(1);
  twice.images.push_back(twice.images[0]);
  EXPECT_NO_THROW(by_name(write(twice), "mbedtls/sha256_1k#2"));
}

TEST(GithubBenchmarkWriter, AnEmptyRunIsAnEmptyArray) {
  model::RunResult empty;
  std::string text;
  EXPECT_EQ(write(empty, &text), Json::array());
  EXPECT_EQ(text, "[]\n");
}

}  // namespace
}  // namespace fathom::report
