#include "compare/result_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "compare/comparison.h"
#include "report/json_writer.h"

namespace fathom::compare {
namespace {

using Json = nlohmann::ordered_json;

model::OperationResult timed(const std::string& name, std::vector<uint64_t> cycles) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kPassed;
  op.kat_vectors = {{name + "-v1", true}, {name + "-v2", true}};
  op.cycle_samples = std::move(cycles);
  for (auto c : op.cycle_samples) op.instruction_samples.push_back(c / 2);
  op.cycles = model::summarize(op.cycle_samples);
  op.instructions = model::summarize(op.instruction_samples);
  op.peak_stack_bytes = 1024;
  op.heap_peak_bytes = 0;
  return op;
}

// Two images: one healthy (with an operation lacking instruction counts and heap figures), one
// that faulted in an unknown function after a failed KAT.
model::RunResult sample_run() {
  model::RunResult run;
  run.suite = "default";
  model::ImageResult good;
  good.configuration = "mbedtls";
  good.board = "sim-m33";
  good.completed = true;
  good.provenance.tool_version = "0.1.0";
  good.provenance.compiler = "arm-none-eabi-gcc 12.2.1";
  good.provenance.cflags = {"-O2", "-mthumb"};
  good.provenance.board = "sim-m33";
  good.provenance.core = "cortex-m33";
  good.provenance.clock_hz = 128'000'000;
  good.provenance.library = "mbedtls";
  good.provenance.library_version = "3.6.6";
  good.provenance.config_defines = {"MBEDTLS_X=1"};
  good.provenance.config_undefines = {"MBEDTLS_ECP_NIST_OPTIM"};
  good.provenance.source_sha256 = {{"mbedtls", std::string(64, 'a')}};
  good.provenance.timing_model = "cortex-m33";
  good.provenance.elf_sha256 = std::string(64, 'b');
  good.provenance.runs = 3;
  good.provenance.warmup = 1;
  good.size = model::ImageSize{100'000, 20'000};
  good.total_cycles = 18'446'744'073'709'551'615ull;  // the largest uint64 survives
  good.total_instructions = 7;
  good.operations.push_back(timed("sha256_1k", {1280, 1281, 1290}));
  auto no_counter = timed("ecdsa_p256_sign", {4'000'000, 4'000'001, 4'000'100});
  no_counter.instruction_samples.clear();
  no_counter.instructions.reset();
  no_counter.heap_peak_bytes.reset();
  no_counter.allocations = 3;
  no_counter.sim_peak_stack_bytes = 1030;
  no_counter.sim_heap_peak_bytes = 0;
  no_counter.sim_allocations = 3;
  no_counter.memory_mismatch = "stack: harness 1024, simulator 1030";
  no_counter.primitive_share = {{"SHA-2", 0.25}, {"bignum", 0.5}};
  good.operations.push_back(no_counter);
  good.console_log = {"hello", "line with | and \"quotes\""};
  run.images.push_back(good);

  model::ImageResult bad;
  bad.configuration = "broken";
  bad.board = "sim-m33";
  bad.error = "image stopped: hardfault";
  bad.fault = model::Fault{"hardfault", 0x1234, "", "bad access"};
  model::OperationResult failed;
  failed.operation = "sha256_1k";
  failed.kat = model::KatStatus::kFailed;
  failed.kat_vectors = {{"v1", false}};
  failed.error = "known-answer test failed";
  bad.operations.push_back(failed);
  run.images.push_back(bad);
  return run;
}

std::string to_json_text(const model::RunResult& run) {
  std::ostringstream out;
  report::JsonWriter().write(run, out);
  return out.str();
}

TEST(ResultFile, RoundTripOfAWrittenResultGivesTheSameResult) {
  const std::string written = to_json_text(sample_run());
  auto read = parse_result_json(written, "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  // Written again, it is byte for byte the same document.
  EXPECT_EQ(to_json_text(*read), written);

  ASSERT_EQ(read->images.size(), 2u);
  const auto& good = read->images[0];
  EXPECT_EQ(good.total_cycles, 18'446'744'073'709'551'615ull);
  EXPECT_EQ(good.provenance.clock_hz, 128'000'000u);
  EXPECT_EQ(good.provenance.timing_model, "cortex-m33");
  ASSERT_EQ(good.operations.size(), 2u);
  EXPECT_EQ(good.operations[0].cycle_samples, (std::vector<uint64_t>{1280, 1281, 1290}));
  ASSERT_TRUE(good.operations[0].cycles.has_value());
  EXPECT_EQ(good.operations[0].cycles->median, 1281);
  EXPECT_TRUE(good.operations[0].has_timing());
  EXPECT_FALSE(good.operations[1].instructions.has_value());
  EXPECT_FALSE(good.operations[1].heap_peak_bytes.has_value());
  EXPECT_EQ(good.operations[1].allocations, 3u);
  EXPECT_EQ(good.operations[1].sim_peak_stack_bytes, 1030u);
  EXPECT_EQ(good.operations[1].memory_mismatch, "stack: harness 1024, simulator 1030");
  EXPECT_EQ(good.operations[1].primitive_share.at("bignum"), 0.5);
  EXPECT_TRUE(good.operations[0].primitive_share.empty());
  EXPECT_EQ(good.console_log[1], "line with | and \"quotes\"");
  const auto& bad = read->images[1];
  ASSERT_TRUE(bad.fault.has_value());
  EXPECT_EQ(bad.fault->function, "");  // written as null
  EXPECT_EQ(bad.fault->pc, 0x1234u);
  EXPECT_EQ(bad.operations[0].kat, model::KatStatus::kFailed);
  EXPECT_EQ(bad.operations[0].error, "known-answer test failed");
  EXPECT_FALSE(bad.operations[0].has_timing());
}

TEST(ResultFile, ReadsPrimitiveShareWhenPresent) {
  Json doc = Json::parse(to_json_text(sample_run()));
  doc["images"][0]["operations"][0]["primitive_share"] = Json{{"SHA-2", 0.75}, {"bignum", 0}};
  auto read = parse_result_json(doc.dump(), "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  const auto& share = read->images[0].operations[0].primitive_share;
  ASSERT_EQ(share.size(), 2u);
  EXPECT_EQ(share.at("SHA-2"), 0.75);
  EXPECT_EQ(share.at("bignum"), 0.0);
}

TEST(ResultFile, UnknownKeysAreIgnored) {
  Json doc = Json::parse(to_json_text(sample_run()));
  doc["generator"] = "a later fathom";
  doc["images"][0]["operations"][0]["memory"]["a_later_figure"] = 100;
  EXPECT_TRUE(parse_result_json(doc.dump(), "r.json").has_value());
}

struct Malformed {
  const char* what;
  std::function<void(Json&)> edit;
  const char* message;  // the whole expected error
};

TEST(ResultFile, EachMalformedInputGivesOneErrorWithFileAndJsonPath) {
  auto op0 = [](Json& d) -> Json& { return d["images"][0]["operations"][0]; };
  const Malformed cases[] = {
      {"array document", [](Json& d) { d = Json::array(); },
       "r.json: (document): expected a JSON object with schema_version; is this the output of "
       "`fathom run --format json`?"},
      {"no schema_version", [](Json& d) { d.erase("schema_version"); },
       "r.json: (document): no schema_version; is this the output of `fathom run --format "
       "json`?"},
      {"newer schema", [](Json& d) { d["schema_version"] = 2; },
       "r.json: schema_version: 2 is newer than this fathom reads (1); use a newer fathom"},
      {"schema as text", [](Json& d) { d["schema_version"] = "1"; },
       "r.json: schema_version: expected an integer"},
      {"schema zero", [](Json& d) { d["schema_version"] = 0; },
       "r.json: schema_version: 0 is not a fathom schema version"},
      {"images not array", [](Json& d) { d["images"] = Json::object(); },
       "r.json: images: expected a JSON array"},
      {"missing board", [](Json& d) { d["images"][0].erase("board"); },
       "r.json: images[0].board: missing"},
      {"completed as text", [](Json& d) { d["images"][1]["completed"] = "no"; },
       "r.json: images[1].completed: expected true or false"},
      {"negative clock", [](Json& d) { d["images"][0]["provenance"]["clock_hz"] = -5; },
       "r.json: images[0].provenance.clock_hz: expected a non-negative integer that fits 64 "
       "bits"},
      {"runs above 32 bits", [](Json& d) { d["images"][0]["provenance"]["runs"] = 5'000'000'000; },
       "r.json: images[0].provenance.runs: expected a non-negative integer that fits 32 bits"},
      {"cflags not strings", [](Json& d) { d["images"][0]["provenance"]["cflags"] = {1, 2}; },
       "r.json: images[0].provenance.cflags: expected an array of strings"},
      {"fault not object", [](Json& d) { d["images"][1]["fault"] = 7; },
       "r.json: images[1].fault: expected a JSON object"},
      {"size lacks ram", [](Json& d) { d["images"][0]["size"].erase("ram_bytes"); },
       "r.json: images[0].size.ram_bytes: missing"},
      {"fractional sample",
       [&](Json& d) { op0(d)["samples"]["cycles"][1] = 1.5; },
       "r.json: images[0].operations[0].samples.cycles[1]: expected a non-negative integer "
       "that fits 64 bits"},
      {"median as text", [&](Json& d) { op0(d)["statistics"]["cycles"]["median"] = "fast"; },
       "r.json: images[0].operations[0].statistics.cycles.median: expected a finite number"},
      {"median null", [&](Json& d) { op0(d)["statistics"]["cycles"]["median"] = nullptr; },
       "r.json: images[0].operations[0].statistics.cycles.median: expected a finite number"},
      {"min above max", [&](Json& d) { op0(d)["statistics"]["cycles"]["min"] = 99999; },
       "r.json: images[0].operations[0].statistics.cycles: min 99999 is above max 1290"},
      {"unknown KAT status", [&](Json& d) { op0(d)["kat"]["status"] = "maybe"; },
       "r.json: images[0].operations[0].kat.status: unknown KAT status 'maybe'; expected "
       "passed, failed or not-run"},
      {"KAT vector passed as text", [&](Json& d) { op0(d)["kat"]["vectors"][1]["passed"] = "yes"; },
       "r.json: images[0].operations[0].kat.vectors[1].passed: expected true or false"},
      {"stack negative", [&](Json& d) { op0(d)["memory"]["peak_stack_bytes"] = -1; },
       "r.json: images[0].operations[0].memory.peak_stack_bytes: expected null or a "
       "non-negative integer that fits 64 bits"},
      {"share above one", [&](Json& d) { op0(d)["primitive_share"] = Json{{"SHA-2", 1.5}}; },
       "r.json: images[0].operations[0].primitive_share.SHA-2: expected a fraction between 0 "
       "and 1"},
      {"sim stack as text", [&](Json& d) { op0(d)["memory"]["sim_peak_stack_bytes"] = "x"; },
       "r.json: images[0].operations[0].memory.sim_peak_stack_bytes: expected null or a "
       "non-negative integer that fits 64 bits"},
      {"console line not text", [](Json& d) { d["images"][0]["console_log"][0] = false; },
       "r.json: images[0].console_log[0]: expected a string"},
  };
  for (const auto& c : cases) {
    Json doc = Json::parse(to_json_text(sample_run()));
    c.edit(doc);
    auto read = parse_result_json(doc.dump(), "r.json");
    ASSERT_FALSE(read.has_value()) << c.what;
    EXPECT_EQ(read.error().message, c.message) << c.what;
    EXPECT_TRUE(read.error().is_usage) << c.what;
  }
}

TEST(ResultFile, TextThatIsNotJsonIsAnError) {
  for (const char* text : {"", "not json", "{\"schema_version\": 1, ", "\xff\xfe"}) {
    auto read = parse_result_json(text, "r.json");
    ASSERT_FALSE(read.has_value()) << text;
    EXPECT_EQ(read.error().message.rfind("r.json: not valid JSON (byte ", 0), 0u)
        << read.error().message;
    EXPECT_TRUE(read.error().is_usage);
  }
}

// nlohmann's parser throws out_of_range, not parse_error, for a number beyond a double (found
// by tests/fuzz/fuzz_result_file.cpp): it must be an error like any other invalid JSON.
TEST(ResultFile, ANumberTooLargeForADoubleIsAnError) {
  for (const char* text : {"{\"schema_version\": 1e400}", "[50509e684051]", "-1e999"}) {
    auto read = parse_result_json(text, "r.json");
    ASSERT_FALSE(read.has_value()) << text;
    EXPECT_EQ(read.error().message,
              "r.json: not valid JSON (a number too large for a double); expected the output of "
              "`fathom run --format json`")
        << text;
    EXPECT_TRUE(read.error().is_usage);
  }
}

TEST(ResultFile, EveryTruncationOfAFileIsAnErrorNotACrash) {
  const std::string written = to_json_text(sample_run());
  // Every proper prefix lacks the closing brace (the last byte is the newline after it).
  for (size_t length = 0; length + 1 < written.size(); length += 7)
    EXPECT_FALSE(parse_result_json(written.substr(0, length), "r.json").has_value()) << length;
}

class ResultFileOnDisk : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("fathom-result-file-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(ResultFileOnDisk, ReadsAWrittenFileAndNamesMissingOnes) {
  const auto path = dir_ / "results.json";
  std::ofstream(path) << to_json_text(sample_run());
  auto read = read_result_file(path);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->images.size(), 2u);

  auto missing = read_result_file(dir_ / "nope.json");
  ASSERT_FALSE(missing.has_value());
  EXPECT_TRUE(missing.error().is_usage);
  EXPECT_NE(missing.error().message.find("nope.json' does not exist"), std::string::npos)
      << missing.error().message;

  auto directory = read_result_file(dir_);
  ASSERT_FALSE(directory.has_value());
  EXPECT_NE(directory.error().message.find("is not a regular file"), std::string::npos);
}

TEST_F(ResultFileOnDisk, TellsFilesFromStoredRunNames) {
  EXPECT_TRUE(names_result_file("results.json"));       // by suffix, even when missing
  EXPECT_TRUE(names_result_file("out/a.json"));
  EXPECT_FALSE(names_result_file("nightly"));
  EXPECT_FALSE(names_result_file("latest"));
  EXPECT_FALSE(names_result_file("12"));
  const auto plain = dir_ / "run-output";
  std::ofstream(plain) << "{}";
  EXPECT_TRUE(names_result_file(plain.string()));  // an existing file without the suffix
  EXPECT_FALSE(names_result_file(dir_.string()));  // a directory is not a results file
}

// Results from a board (no timing model) keep comparison.h's noise rule: the threshold widens
// to three times the robust relative spread (1.4826 × MAD / median) of the samples read from
// the file.
TEST(ResultFile, HardwareResultsFromFilesUseTheSampleSpread) {
  model::RunResult a = sample_run();
  a.images.resize(1);
  a.images[0].provenance.timing_model = "";
  a.images[0].operations.resize(1);
  auto& op = a.images[0].operations[0];
  op.cycle_samples = {1000, 1100, 900, 1000};
  op.cycles = model::summarize(op.cycle_samples);
  model::RunResult b = a;
  b.images[0].operations[0].cycle_samples = {1100, 1200, 1000, 1100};
  b.images[0].operations[0].cycles = model::summarize(b.images[0].operations[0].cycle_samples);

  auto read_a = parse_result_json(to_json_text(a), "a.json");
  auto read_b = parse_result_json(to_json_text(b), "b.json");
  ASSERT_TRUE(read_a && read_b);
  const Comparison c = compare_runs(*read_a, *read_b, CompareOptions{});
  const auto& cycles = *c.images.at(0).operations.at(0).find(Metric::kCycles);
  // Spread of A: 1.4826 × MAD 50 / median 1000 = 7.41 %; B: 1.4826 × 50 / 1100 = 6.74 %.
  // Threshold 3 × 7.41 % = 22.24 %.
  EXPECT_NEAR(cycles.threshold_percent, 3 * 1.4826 * 5.0, 1e-9);
  EXPECT_EQ(cycles.verdict, Verdict::kUnchanged);  // +10 % is inside the board's noise
}

}  // namespace
}  // namespace fathom::compare
