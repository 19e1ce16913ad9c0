#include "report/gbench_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "run_fixture.h"

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
  EXPECT_EQ(c["num_cpus"], 2);
  EXPECT_EQ(c["mhz_per_cpu"], 128);  // the board clock
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
  EXPECT_EQ(doc["benchmarks"].size(), 5u);  // 2 + 2 operations, 1 broken image
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
  EXPECT_TRUE(names.count("mbedtls-no-nist-optim/ecdsa_p256_sign"));
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

TEST(GbenchWriter, OperationsWithoutTimingAreErrorEntries) {
  std::string text;
  const auto doc = write(fixture::make_run(3), &text);
  const auto& failed = by_name(doc, "mbedtls-no-nist-optim/ecdsa_p256_sign");
  EXPECT_EQ(failed["error_occurred"], true);
  const std::string message = failed["error_message"];
  EXPECT_NE(message.find("known-answer test failed"), std::string::npos) << message;
  EXPECT_NE(message.find("rfc6979-a.2.5-sha256"), std::string::npos) << message;
  EXPECT_FALSE(failed.contains("cycles"));
  EXPECT_EQ(text.find(std::to_string(fixture::kPoisonCycles)), std::string::npos);

  const auto& broken = by_name(doc, "broken");
  EXPECT_EQ(broken["error_occurred"], true);
  EXPECT_NE(broken["error_message"].get<std::string>().find("hardfault"), std::string::npos);
}

TEST(GbenchWriter, BoardJoinsTheNameOnlyWithSeveralBoards) {
  auto run = fixture::make_run(1);
  auto other = run.images[0];
  other.board = "sim-m4";
  other.provenance.board = "sim-m4";
  other.provenance.clock_hz = 64'000'000;
  run.images.push_back(other);
  const auto doc = write(run);
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
  EXPECT_EQ(by_name(doc, "mbedtls/sha256_1k")["error_occurred"], true);
  EXPECT_EQ(text.find("inf"), std::string::npos);
  EXPECT_EQ(text.find("null"), std::string::npos);
}

}  // namespace
}  // namespace fathom::report
