#include "pipeline/result_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "../model/full_run_fixture.h"
#include "model/run_result_json.h"
#include "model/statistics.h"
#include "report/json_writer.h"

namespace fathom::pipeline {
namespace {
namespace fs = std::filesystem;

ResultKeyInputs key_inputs() {
  ResultKeyInputs in;
  in.elf_sha256 = std::string(64, 'e');
  in.board_description = "name = \"sim-m33\"\ncore = \"cortex-m33\"\n";
  in.runs = 10;
  in.warmup = 1;
  in.operations = {"sha256_1k"};
  in.cycle_budget = 50'000'000'000ULL;
  in.observers = "hooks=0 memory_watch=true";
  in.tool_sha256 = std::string(64, 't');
  return in;
}

model::ImageResult measured_image() {
  model::ImageResult img;
  img.configuration = "mbedtls";
  img.board = "sim-m33";
  img.completed = true;
  img.provenance.board = "sim-m33";
  img.provenance.timing_model = "cortex-m33 v1";
  img.provenance.elf_sha256 = std::string(64, 'e');
  img.size = model::ImageSize{1000, 200};
  img.total_cycles = 123456;
  img.total_instructions = 100000;
  model::OperationResult op;
  op.operation = "sha256_1k";
  op.kat = model::KatStatus::kPassed;
  op.kat_vectors = {{"fips180-abc", true}};
  op.cycle_samples = {1280, 1280, 1290};
  op.cycles = model::summarize(op.cycle_samples);
  op.peak_stack_bytes = 512;
  op.heap_peak_bytes = 0;
  op.allocations = 0;
  img.operations.push_back(op);
  img.console_log = {"hello"};
  return img;
}

class ResultCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fathom-result-cache-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST(ResultKey, ChangesWithEveryInput) {
  const std::string base = result_key(key_inputs());
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(result_key(key_inputs()), base);
  std::vector<ResultKeyInputs> variants(14, key_inputs());
  variants[0].elf_sha256[0] = 'f';
  variants[1].board_description += "flash_wait_states = 1\n";
  variants[2].runs = 11;
  variants[3].warmup = 0;
  variants[4].operations = {"sha256_1k", "aes_gcm"};
  variants[5].cycle_budget = 1;
  variants[6].observers = "hooks=1 memory_watch=true";
  variants[7].tool_sha256[0] = 'u';
  variants[8].operations = {};
  // The per-operation run counts (pipeline/run_selection.h): present, another count, another
  // operation.
  variants[9].operation_runs = {{"sha256_1k", 2}};
  variants[10].operation_runs = {{"sha256_1k", 3}};
  variants[11].operation_runs = {{"aes_gcm", 2}};
  // `fathom ct`'s secret variants: another first variant, or the control.
  variants[12].secret_variants = "first=0 fixed=false";
  variants[13].secret_variants = "first=0 fixed=true";
  for (size_t i = 0; i < variants.size(); ++i)
    EXPECT_NE(result_key(variants[i]), base) << "variant " << i;
  EXPECT_NE(result_key(variants[12]), result_key(variants[13]));
}

TEST_F(ResultCacheTest, AStoredResultIsReusedAndMarked) {
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  EXPECT_FALSE(cache.load(key).has_value());  // nothing stored yet
  ASSERT_TRUE(cache.store(key, measured_image(), "2026-11-30T03:12:45Z"));
  auto reused = cache.load(key);
  ASSERT_TRUE(reused.has_value());
  EXPECT_EQ(reused->provenance.reused_from, "2026-11-30T03:12:45Z");
  EXPECT_TRUE(reused->completed);
  EXPECT_EQ(reused->total_cycles, 123456u);
  EXPECT_EQ(reused->provenance.timing_model, "cortex-m33 v1");
  ASSERT_EQ(reused->operations.size(), 1u);
  EXPECT_EQ(reused->operations[0].cycle_samples, (std::vector<uint64_t>{1280, 1280, 1290}));
  ASSERT_TRUE(reused->operations[0].cycles.has_value());
  EXPECT_EQ(reused->operations[0].cycles->median, 1280);
  EXPECT_EQ(reused->operations[0].peak_stack_bytes, 512u);
  EXPECT_EQ(reused->console_log, std::vector<std::string>{"hello"});
  // Another key finds nothing.
  auto other = key_inputs();
  other.runs = 3;
  EXPECT_FALSE(cache.load(result_key(other)).has_value());
}

TEST_F(ResultCacheTest, AReusedResultWritesTheSameJsonAsTheMeasuredOne) {
  // Whatever the results file holds survives the cache (a field the writer gains but the
  // reader does not would show here).
  auto image = measured_image();
  image.provenance.libc = "picolibc";
  image.provenance.cflags = {"-O2", "-mcpu=cortex-m33"};
  image.operations[0].primitive_share = {{"SHA-2", 0.75}};
  image.operations[0].object_bytes = {{"digest", 32}};
  image.operations[0].sim_peak_stack_bytes = 512;
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  ASSERT_TRUE(cache.store(key, image, "2026-11-30T03:12:45Z"));
  auto reused = cache.load(key);
  ASSERT_TRUE(reused.has_value());
  reused->provenance.reused_from.clear();
  auto json = [](const model::ImageResult& img) {
    model::RunResult run;
    run.images = {img};
    std::ostringstream out;
    report::JsonWriter().write(run, out);
    return out.str();
  };
  EXPECT_EQ(json(*reused), json(image));
}

// Every field of a fully populated image survives the cache (model/run_result_json.h).
TEST_F(ResultCacheTest, EveryFieldOfTheImageSurvives) {
  auto image = model::fixture::full_run().images[0];
  for (auto& op : image.operations) {  // what makes an image reusable
    op.kat = model::KatStatus::kPassed;
    op.memory_mismatch.clear();
    op.error.clear();
  }
  image.provenance.reused_from.clear();
  ASSERT_TRUE(reusable(image));
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  ASSERT_TRUE(cache.store(key, image, "2026-11-30T03:12:45Z"));
  auto reused = cache.load(key);
  ASSERT_TRUE(reused.has_value());
  EXPECT_EQ(reused->provenance.reused_from, "2026-11-30T03:12:45Z");
  reused->provenance.reused_from.clear();
  EXPECT_EQ(model::dump_json(model::to_json(*reused)), model::dump_json(model::to_json(image)));
}

// A file written before the cache stored the model's JSON (it held the report's, with the
// derived "fastest" marks and "warnings") is still reused.
TEST_F(ResultCacheTest, AFileHoldingTheReportJsonIsReused) {
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  model::RunResult run;
  run.images = {measured_image()};
  std::ostringstream report;
  report::JsonWriter().write(run, report);
  model::ResultJson envelope;
  envelope["fathom_result_cache"] = 1;
  envelope["key"] = key;
  envelope["measured_at"] = "2026-11-30T03:12:45Z";
  envelope["result"] = model::ResultJson::parse(report.str());
  ASSERT_TRUE(envelope["result"]["images"][0]["operations"][0].contains("fastest"));
  fs::create_directories(dir_);
  std::ofstream(dir_ / (key + ".json"), std::ios::binary) << envelope.dump(1);
  auto reused = cache.load(key);
  ASSERT_TRUE(reused.has_value());
  EXPECT_EQ(reused->operations[0].cycle_samples, (std::vector<uint64_t>{1280, 1280, 1290}));
  EXPECT_EQ(reused->console_log, std::vector<std::string>{"hello"});
}

TEST_F(ResultCacheTest, AStoreReplacesTheEarlierResult) {
  // `fathom run --fresh` measures again and stores the new result under the same key.
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  ASSERT_TRUE(cache.store(key, measured_image(), "2026-11-30T03:12:45Z"));
  auto again = measured_image();
  again.total_cycles = 654321;
  ASSERT_TRUE(cache.store(key, again, "2026-12-01T08:00:00Z"));
  auto reused = cache.load(key);
  ASSERT_TRUE(reused.has_value());
  EXPECT_EQ(reused->total_cycles, 654321u);
  EXPECT_EQ(reused->provenance.reused_from, "2026-12-01T08:00:00Z");
}

TEST_F(ResultCacheTest, FailedImagesAreNeverStoredOrReused) {
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  ASSERT_TRUE(cache.store(key, measured_image(), "2026-11-30T03:12:45Z"));

  auto faulted = measured_image();
  faulted.completed = false;
  faulted.fault = model::Fault{"hardfault", 0x1234, "f", "bad access"};
  EXPECT_FALSE(reusable(faulted));
  // Storing a failed result removes the stale good one: the image is measured again.
  ASSERT_TRUE(cache.store(key, faulted, "2026-11-30T03:13:00Z"));
  EXPECT_FALSE(cache.load(key).has_value());

  auto errored = measured_image();
  errored.error = "protocol error";
  EXPECT_FALSE(reusable(errored));
  ASSERT_TRUE(cache.store(key, errored, "2026-11-30T03:13:00Z"));
  EXPECT_FALSE(cache.load(key).has_value());
  auto kat_failed = measured_image();
  kat_failed.operations[0].kat = model::KatStatus::kFailed;
  EXPECT_FALSE(reusable(kat_failed));
  ASSERT_TRUE(cache.store(key, kat_failed, "2026-11-30T03:13:00Z"));
  EXPECT_FALSE(cache.load(key).has_value());

  auto mismatch = measured_image();
  mismatch.operations[0].memory_mismatch = "stack differs by 64 bytes";
  EXPECT_FALSE(reusable(mismatch));
  EXPECT_TRUE(reusable(measured_image()));
}

// RunOptions::kept_observation: a caller's text (a profile file) kept beside the result,
// byte for byte (tabs, newlines, any byte), replaced by a later store, and removed with the
// result when a failed measurement replaces it.
TEST_F(ResultCacheTest, AnObservationIsKeptBesideItsResult) {
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  EXPECT_FALSE(cache.load_observation(key).has_value());
  ASSERT_TRUE(cache.store(key, measured_image(), "2026-11-30T03:12:45Z"));
  const std::string text = std::string("fathom-profile 1\nframe\t0\t\xff\0x\n", 29);
  ASSERT_TRUE(cache.store_observation(key, text));
  EXPECT_EQ(cache.load_observation(key), text);
  ASSERT_TRUE(cache.store_observation(key, "second\n"));
  EXPECT_EQ(cache.load_observation(key), "second\n");
  // Another key has none; a key that is not a SHA-256 is refused.
  auto other = key_inputs();
  other.runs = 3;
  EXPECT_FALSE(cache.load_observation(result_key(other)).has_value());
  EXPECT_FALSE(cache.store_observation("../escape", "x"));
  EXPECT_FALSE(cache.load_observation("../escape").has_value());
  auto faulted = measured_image();
  faulted.completed = false;
  ASSERT_TRUE(cache.store(key, faulted, "2026-11-30T03:13:00Z"));
  EXPECT_FALSE(cache.load(key).has_value());
  EXPECT_FALSE(cache.load_observation(key).has_value());
}

TEST_F(ResultCacheTest, ACorruptFileIsIgnored) {
  ResultCache cache(dir_);
  const std::string key = result_key(key_inputs());
  ASSERT_TRUE(cache.store(key, measured_image(), "2026-11-30T03:12:45Z"));
  const fs::path file = dir_ / (key + ".json");
  ASSERT_TRUE(fs::exists(file));
  std::string text;
  {
    std::ifstream in(file, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::vector<std::string> corrupt = {
      "",
      "not json",
      text.substr(0, text.size() / 2),  // truncated
      "{\"fathom_result_cache\": 1}",
      "[1, 2, 3]",
  };
  for (const auto& bad : corrupt) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bad;
    EXPECT_FALSE(cache.load(key).has_value()) << bad.substr(0, 40);
  }
  // A file whose envelope names another key (copied by hand) is not trusted.
  std::string foreign = text;
  foreign.replace(foreign.find(key), key.size(), std::string(64, '0'));
  std::ofstream(file, std::ios::binary | std::ios::trunc) << foreign;
  EXPECT_FALSE(cache.load(key).has_value());
  // A wrong type deep inside is refused by the results reader, not a crash.
  std::string bad_type = text;
  const std::string total = "\"cycles\": 123456";  // the image's totals
  const auto cycles = bad_type.find(total);
  ASSERT_NE(cycles, std::string::npos);
  bad_type.replace(cycles, total.size(), "\"cycles\": \"many\"");
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bad_type;
  EXPECT_FALSE(cache.load(key).has_value());
}

TEST(ResultCacheTime, TimestampIsIsoUtc) {
  const std::string now = utc_timestamp_now();
  ASSERT_EQ(now.size(), 20u) << now;
  EXPECT_EQ(now[4], '-');
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now[19], 'Z');
}

TEST(ResultCacheTool, ExecutableDigestIsStable) {
  auto a = executable_sha256();
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->size(), 64u);
  EXPECT_EQ(*executable_sha256(), *a);
}

}  // namespace
}  // namespace fathom::pipeline
