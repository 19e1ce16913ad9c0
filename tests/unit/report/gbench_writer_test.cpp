#include "report/gbench_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <unistd.h>
#include <sstream>

#include "run_fixture.h"
#include "util/subprocess.h"

namespace fathom::report {
namespace {

using Json = nlohmann::json;

const GbenchContext kContext{"2024-05-01T12:00:00+00:00", "testhost", 2};

Json write(const model::RunResult& run, std::string* text = nullptr) {
  std::ostringstream out;
  GbenchWriter(kContext).write(run, out);
  if (text) *text = out.str();
  return Json::parse(out.str());  // throws (fails the test) if invalid
}

const Json& by_name(const Json& doc, const std::string& name) {
  for (const auto& b : doc["benchmarks"])
    if (b["name"] == name) return b;
  throw std::runtime_error("no benchmark named " + name);
}

TEST(GbenchWriter, ContextHasTheFieldsOfTheFormat) {
  const auto doc = write(fixture::make_run(2));
  const auto& c = doc["context"];
  EXPECT_EQ(c["date"], "2024-05-01T12:00:00+00:00");
  EXPECT_EQ(c["host_name"], "testhost");
  EXPECT_EQ(c["executable"], "fathom");
  // One machine: the simulated board, one core at its clock; the host is described apart.
  EXPECT_EQ(c["num_cpus"], 1);
  EXPECT_EQ(c["mhz_per_cpu"], 128);  // the board clock
  EXPECT_EQ(c["host_num_cpus"], "2");
  EXPECT_EQ(c["library_build_type"], "release");
  EXPECT_EQ(c["json_schema_version"], 1);
  EXPECT_EQ(c["board"], "sim-m33");
  EXPECT_EQ(c["suite"], "default");
  EXPECT_TRUE(c["timing_model"].is_string());
  EXPECT_TRUE(c["num_cpus"].is_number_integer());
  EXPECT_TRUE(c["mhz_per_cpu"].is_number_integer());
}

TEST(GbenchWriter, EveryBenchmarkHasTheRequiredFieldsAndAUniqueName) {
  std::string text;
  const auto doc = write(fixture::make_run(3), &text);
  EXPECT_EQ(text.find("NaN"), std::string::npos);
  EXPECT_EQ(text.find("Infinity"), std::string::npos);
  ASSERT_TRUE(doc["benchmarks"].is_array());
  // 2 + 1 timed operations; the failed KAT and the broken image have no entry.
  EXPECT_EQ(doc["benchmarks"].size(), 3u);
  std::set<std::string> names;
  for (const auto& b : doc["benchmarks"]) {
    EXPECT_TRUE(names.insert(b["name"].get<std::string>()).second) << b["name"];
    EXPECT_EQ(b["run_name"], b["name"]);
    EXPECT_EQ(b["run_type"], "iteration");
    EXPECT_EQ(b["repetitions"], 1);
    EXPECT_EQ(b["repetition_index"], 0);
    EXPECT_EQ(b["threads"], 1);
    EXPECT_TRUE(b["iterations"].is_number_integer());
    EXPECT_TRUE(b["real_time"].is_number());
    EXPECT_TRUE(b["cpu_time"].is_number());
    EXPECT_EQ(b["time_unit"], "ns");
  }
  EXPECT_TRUE(names.count("mbedtls/sha256_1k"));
  EXPECT_TRUE(names.count("mbedtls-no-nist-optim/sha256_1k"));
  EXPECT_FALSE(names.count("mbedtls-no-nist-optim/ecdsa_p256_sign"));
}

TEST(GbenchWriter, TimeIsTheMedianCyclesAtTheBoardClock) {
  const auto doc = write(fixture::make_run(2));
  const auto& sha = by_name(doc, "mbedtls-no-nist-optim/sha256_1k");
  EXPECT_DOUBLE_EQ(sha["real_time"].get<double>(), 2560 * 1e9 / 128e6);  // 20,000 ns
  EXPECT_EQ(sha["real_time"], sha["cpu_time"]);
  EXPECT_EQ(sha["cycles"], 2560.0);
  EXPECT_EQ(sha["instructions"], 1280.0);
  EXPECT_EQ(sha["peak_stack_bytes"], 1024);
  EXPECT_EQ(sha["heap_peak_bytes"], 2048);
  EXPECT_EQ(sha["iterations"], 3);
  EXPECT_FALSE(sha.contains("error_occurred"));
  for (const auto& b : doc["benchmarks"]) {
    if (b.contains("error_occurred")) continue;
    EXPECT_DOUBLE_EQ(b["real_time"].get<double>(), b["cycles"].get<double>() / 0.128) << b;
  }
}

// The context's "errors" lines, "<name>: <why>".
std::vector<std::string> error_lines(const Json& doc) {
  std::vector<std::string> lines;
  if (!doc["context"].contains("errors")) return lines;
  std::istringstream in(doc["context"]["errors"].get<std::string>());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(GbenchWriter, FailuresHaveNoEntryAndAreRecordedInTheContext) {
  std::string text;
  const auto doc = write(fixture::make_run(3), &text);
  for (const auto& b : doc["benchmarks"]) {
    EXPECT_FALSE(b.contains("error_occurred")) << b;
    EXPECT_GT(b["real_time"].get<double>(), 0) << b;  // no real_time 0 that reads as a time
  }
  EXPECT_THROW(by_name(doc, "mbedtls-no-nist-optim/ecdsa_p256_sign"), std::runtime_error);
  EXPECT_THROW(by_name(doc, "broken"), std::runtime_error);
  const auto lines = error_lines(doc);
  ASSERT_EQ(lines.size(), 2u) << doc["context"];
  EXPECT_EQ(lines[0].rfind("mbedtls-no-nist-optim/ecdsa_p256_sign: known-answer test failed", 0),
            0u)
      << lines[0];
  EXPECT_NE(lines[0].find("rfc6979-a.2.5-sha256"), std::string::npos) << lines[0];
  EXPECT_EQ(lines[1].rfind("broken: ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("hardfault"), std::string::npos) << lines[1];
  EXPECT_EQ(text.find(std::to_string(fixture::kPoisonCycles)), std::string::npos);
  // A clean run has no errors field.
  EXPECT_FALSE(write(fixture::make_run(1))["context"].contains("errors"));
}

TEST(GbenchWriter, BoardJoinsTheNameOnlyWithSeveralBoards) {
  const auto doc = write(fixture::make_run_on_two_boards());
  const auto& m4 = by_name(doc, "mbedtls/sha256_1k@sim-m4");
  EXPECT_DOUBLE_EQ(m4["real_time"].get<double>(), 1280 * 1e9 / 64e6);
  EXPECT_NO_THROW(by_name(doc, "mbedtls/sha256_1k@sim-m33"));
  EXPECT_EQ(doc["context"]["mhz_per_cpu"], 128);
  EXPECT_EQ(doc["context"]["board"], "sim-m33, sim-m4");
}

TEST(GbenchWriter, UnknownClockIsAnErrorNotInfinity) {
  auto run = fixture::make_run(1);
  run.images[0].provenance.clock_hz = 0;
  std::string text;
  const auto doc = write(run, &text);
  EXPECT_THROW(by_name(doc, "mbedtls/sha256_1k"), std::runtime_error);
  const auto lines = error_lines(doc);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0], "mbedtls/sha256_1k: board sim-m33 has no clock frequency to turn cycles "
                      "into time");
  EXPECT_EQ(text.find("inf"), std::string::npos);
  EXPECT_EQ(text.find("null"), std::string::npos);
}

// Read back as its consumer does: google/benchmark's compare.py (Debian libbenchmark-tools,
// installed by scripts/setup.sh) pairs the entries of two files by name and compares their
// times. A failure on one side must not become a "change".
TEST(GbenchWriter, CompareDotPyReadsItAndComparesOnlyMeasurements) {
  const std::filesystem::path compare_py = "/usr/share/benchmark/compare.py";
  // Debian's Python, which has python3-scipy (compare.py needs it), whatever python3 PATH finds.
  if (!std::filesystem::exists(compare_py) || !std::filesystem::exists("/usr/bin/python3"))
    GTEST_SKIP() << compare_py << " is missing (apt-get install libbenchmark-tools python3-scipy)";
  auto a = fixture::make_run(1);  // sha256_1k 1,280 cycles, ecdsa_p256_sign 4,000,000
  auto b = fixture::make_run(1);
  b.images[0].operations[0].cycle_samples = {2560, 2560, 2560};  // twice as slow
  b.images[0].operations[0].cycles = model::summarize(b.images[0].operations[0].cycle_samples);
  auto& sign = b.images[0].operations[1];  // fails in B
  sign.kat = model::KatStatus::kFailed;
  sign.error = "known-answer test failed";
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fathom-gbench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& [name, run] : {std::pair{"a.json", &a}, std::pair{"b.json", &b}}) {
    std::ofstream out(dir / name);
    GbenchWriter(kContext).write(*run, out);
  }
  auto ran = util::run_process({"/usr/bin/python3", compare_py.string(), "--no-color", "benchmarks",
                                (dir / "a.json").string(), (dir / "b.json").string()});
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(ran) << ran.error().message;
  ASSERT_EQ(ran->exit_code, 0) << ran->stdout_text << ran->stderr_text;
  const std::string& report = ran->stdout_text;
  // The measured pair: time +1.0000 (twice), 10,000 ns -> 20,000 ns.
  std::istringstream lines(report);
  std::string sha;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("mbedtls/sha256_1k ", 0) == 0) sha = line;
  ASSERT_FALSE(sha.empty()) << report;
  EXPECT_NE(sha.find("+1.0000"), std::string::npos) << sha;
  EXPECT_NE(sha.find("10000"), std::string::npos) << sha;
  EXPECT_NE(sha.find("20000"), std::string::npos) << sha;
  // The operation that failed in B is not compared at all.
  EXPECT_EQ(report.find("ecdsa_p256_sign"), std::string::npos) << report;
}

}  // namespace
}  // namespace fathom::report
