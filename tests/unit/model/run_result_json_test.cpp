// model/run_result_json.h: the results model's JSON, written and read back.
#include "model/run_result_json.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "full_run_fixture.h"

namespace fathom::model {
namespace {

using Json = ResultJson;
using fixture::empty_run;
using fixture::full_provenance;
using fixture::full_run;

std::string text_of(const RunResult& run) { return dump_json(to_json(run), 2); }

RunResult read_back(const std::string& text) {
  auto read = run_result_from_json(Json::parse(text));
  EXPECT_TRUE(read.has_value()) << read.error().message;
  return read ? *read : RunResult{};
}

TEST(RunResultJson, FullyPopulatedRunRoundTripsByteForByte) {
  const std::string written = text_of(full_run());
  const RunResult read = read_back(written);
  EXPECT_EQ(text_of(read), written);

  // And every field came back as it was, not merely as a stable text.
  const RunResult want = full_run();
  ASSERT_EQ(read.images.size(), 2u);
  EXPECT_EQ(read.images[0].untimed_instructions, 5u);
  const auto& op = read.images[0].operations[0];
  const auto& want_op = want.images[0].operations[0];
  EXPECT_EQ(op.kat_vectors[1].name, want_op.kat_vectors[1].name);
  EXPECT_EQ(op.cycle_samples, want_op.cycle_samples);
  EXPECT_EQ(op.instruction_samples, want_op.instruction_samples);
  ASSERT_TRUE(op.cycles && op.instructions);
  EXPECT_EQ(op.cycles->median, 1281.0);
  EXPECT_EQ(op.cycles->mean, want_op.cycles->mean);
  EXPECT_EQ(op.instructions->max, 645u);
  EXPECT_EQ(op.heap_start_bytes, 96u);
  EXPECT_EQ(op.sim_peak_stack_bytes, 1030u);
  EXPECT_EQ(op.sim_heap_peak_bytes, 2048u);
  EXPECT_EQ(op.sim_allocations, 12u);
  EXPECT_EQ(op.memory_mismatch, want_op.memory_mismatch);
  EXPECT_EQ(op.primitive_share, want_op.primitive_share);
  EXPECT_EQ(op.primitive_calls, want_op.primitive_calls);
  EXPECT_EQ(op.distinct_inputs, 3u);
  EXPECT_EQ(op.requested_runs, 2u);
  EXPECT_EQ(op.runs_reason, RunsReason::kFixedInputs);
  EXPECT_EQ(op.samples_identical, false);
  EXPECT_EQ(op.object_bytes, want_op.object_bytes);
  EXPECT_EQ(op.not_timed, want_op.not_timed);
  EXPECT_EQ(op.error, want_op.error);
  EXPECT_EQ(read.images[0].operations[1].kat, KatStatus::kNotRun);
  EXPECT_EQ(read.images[0].total_cycles, 18'446'744'073'709'551'615ull);
  EXPECT_EQ(read.images[0].console_log, want.images[0].console_log);
  const auto& p = read.images[1].provenance;
  EXPECT_EQ(p.stack_reserve_bytes, 32768u);
  EXPECT_EQ(p.libc, "newlib-nano");
  EXPECT_EQ(p.isolation, "snapshot");
  EXPECT_EQ(p.run_order, want.images[1].provenance.run_order);
  EXPECT_EQ(p.reused_from, "2026-11-30T03:12:45Z");
  EXPECT_EQ(p.source_sha256, want.images[1].provenance.source_sha256);
  const auto& bad = read.images[1];
  ASSERT_TRUE(bad.fault.has_value());
  EXPECT_EQ(bad.fault->pc, 0xFFFFFFFFu);
  EXPECT_EQ(bad.fault->function, "");
  EXPECT_EQ(bad.operations[0].kat, KatStatus::kFailed);
  EXPECT_EQ(bad.operations[0].object_bytes.at("digest"), 32u);
  ASSERT_EQ(read.fairness.size(), 1u);
  EXPECT_EQ(read.fairness[0].median_cycles, want.fairness[0].median_cycles);
  EXPECT_TRUE(read.fairness[0].passed);
  ASSERT_EQ(read.workflows.size(), 2u);
  const auto& wf = read.workflows[0];
  EXPECT_EQ(wf.steps[0].operations, want.workflows[0].steps[0].operations);
  EXPECT_EQ(wf.steps[0].heap_peak_bytes, 512u);
  EXPECT_EQ(wf.wire_objects, want.workflows[0].wire_objects);  // in their order, not sorted
  EXPECT_EQ(wf.stored_bytes, 1632u);
  EXPECT_EQ(wf.heap_peak_bytes, 512u);
  EXPECT_EQ(read.workflows[1].error, want.workflows[1].error);
  EXPECT_TRUE(read.workflows[1].configuration.empty());
  ASSERT_EQ(read.workflow_verdicts.size(), 1u);
  ASSERT_EQ(read.workflow_verdicts[0].others.size(), 2u);
  EXPECT_EQ(read.workflow_verdicts[0].others[1].ratio, 1.0003);
  EXPECT_TRUE(read.workflow_verdicts[0].others[1].tie);
}

TEST(RunResultJson, EmptyOptionalsAreNullAndRoundTripByteForByte) {
  const std::string written = text_of(empty_run());
  const Json doc = Json::parse(written);
  const auto& img = doc["images"][0];
  for (const char* key : {"error", "fault", "size"}) EXPECT_TRUE(img[key].is_null()) << key;
  EXPECT_TRUE(img["provenance"]["reused_from"].is_null());
  const auto& op = img["operations"][0];
  EXPECT_EQ(op["kat"]["status"], "not-run");
  EXPECT_TRUE(op["statistics"]["cycles"].is_null());
  for (const auto& [key, value] : op["memory"].items()) EXPECT_TRUE(value.is_null()) << key;
  for (const char* key :
       {"distinct_inputs", "runs", "runs_reason", "samples_identical", "not_timed", "error"})
    EXPECT_TRUE(op[key].is_null()) << key;
  EXPECT_EQ(op["primitive_share"], Json::object());
  EXPECT_EQ(op["object_bytes"], Json::object());
  EXPECT_EQ(doc["workflows"], Json::array());

  const RunResult read = read_back(written);
  EXPECT_EQ(text_of(read), written);
  ASSERT_EQ(read.images.size(), 1u);
  EXPECT_FALSE(read.images[0].fault.has_value());
  EXPECT_FALSE(read.images[0].size.has_value());
  EXPECT_FALSE(read.images[0].operations[0].heap_start_bytes.has_value());
  EXPECT_FALSE(read.images[0].operations[0].sim_allocations.has_value());
}

// Figures of an operation whose KAT did not pass are not written (report/writer.h): a failed
// operation holding samples reads back without them, and writes the same text again.
TEST(RunResultJson, FiguresOfAFailedKatAreNotWritten) {
  RunResult run = full_run();
  auto& op = run.images[0].operations[0];
  op.kat = KatStatus::kFailed;
  const std::string written = text_of(run);
  const RunResult read = read_back(written);
  const auto& back = read.images[0].operations[0];
  EXPECT_TRUE(back.cycle_samples.empty());
  EXPECT_FALSE(back.cycles.has_value());
  EXPECT_FALSE(back.peak_stack_bytes.has_value());
  EXPECT_FALSE(back.sim_peak_stack_bytes.has_value());
  EXPECT_TRUE(back.primitive_share.empty());
  EXPECT_EQ(back.distinct_inputs, 0u);
  EXPECT_FALSE(back.samples_identical.has_value());
  EXPECT_EQ(back.requested_runs, 2u);  // what was asked for is not a figure
  EXPECT_EQ(back.memory_mismatch, op.memory_mismatch);  // not a figure: the reason stays
  EXPECT_EQ(back.object_bytes, op.object_bytes);
  EXPECT_EQ(text_of(read), written);
}

TEST(RunResultJson, KatStatusNamesAreOneTable) {
  for (KatStatus status : {KatStatus::kNotRun, KatStatus::kPassed, KatStatus::kFailed})
    EXPECT_EQ(parse_kat_status(to_string(status)), status);
  EXPECT_EQ(to_string(KatStatus::kNotRun), "not-run");
  EXPECT_FALSE(parse_kat_status("pass").has_value());  // the table writer's word, not a name
  EXPECT_FALSE(parse_kat_status("").has_value());
}

TEST(RunResultJson, RunsReasonNamesAreOneTable) {
  for (RunsReason reason : {RunsReason::kSuite, RunsReason::kCommandLine,
                            RunsReason::kFreshInputs, RunsReason::kFixedInputs}) {
    EXPECT_EQ(parse_runs_reason(to_string(reason)), reason);
    EXPECT_FALSE(runs_reason_text(reason).empty());
  }
  EXPECT_EQ(to_string(RunsReason::kFixedInputs), "fixed-inputs");
  EXPECT_EQ(runs_reason_text(RunsReason::kFixedInputs), "deterministic target: inputs fixed per run");
  EXPECT_EQ(to_string(RunsReason::kUnknown), "");
  EXPECT_FALSE(parse_runs_reason("").has_value());
  EXPECT_FALSE(parse_runs_reason("command line").has_value());  // the text, not the name
}

// Files written before a key existed (within schema 1) still read: absent is none.
TEST(RunResultJson, KeysAddedAfterTheFirstWriterMayBeAbsent) {
  Json doc = to_json(full_run());
  for (const char* key : {"fairness", "workflows", "workflow_verdicts", "shard"}) doc.erase(key);
  Json& img = doc["images"][0];
  for (const char* key : {"stack_reserve_bytes", "libc", "isolation", "run_order", "reused_from"})
    img["provenance"].erase(key);
  Json& op = img["operations"][0];
  for (const char* key : {"primitive_share", "primitive_calls", "distinct_inputs",
                          "object_bytes", "not_timed", "runs", "runs_reason", "samples_identical"})
    op.erase(key);
  for (const char* key : {"heap_start_bytes", "sim_peak_stack_bytes", "sim_heap_peak_bytes",
                          "sim_allocations", "mismatch"})
    op["memory"].erase(key);
  auto read = run_result_from_json(doc);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  const auto& back = read->images[0].operations[0];
  EXPECT_FALSE(back.heap_start_bytes.has_value());
  EXPECT_TRUE(back.memory_mismatch.empty());
  EXPECT_TRUE(back.primitive_calls.empty());
  EXPECT_EQ(back.distinct_inputs, 0u);
  EXPECT_EQ(back.requested_runs, 0u);
  EXPECT_EQ(back.runs_reason, RunsReason::kUnknown);
  EXPECT_FALSE(back.samples_identical.has_value());
  EXPECT_TRUE(back.not_timed.empty());
  EXPECT_TRUE(read->images[0].provenance.libc.empty());
  EXPECT_TRUE(read->workflows.empty());
  EXPECT_EQ(back.cycles->median, 1281.0);

  // Workflow heap figures came after workflows.
  Json with_workflows = to_json(full_run());
  with_workflows["workflows"][0].erase("heap_peak_bytes");
  with_workflows["workflows"][0]["steps"][0].erase("heap_peak_bytes");
  auto wf = run_result_from_json(with_workflows);
  ASSERT_TRUE(wf.has_value()) << wf.error().message;
  EXPECT_EQ(wf->workflows[0].heap_peak_bytes, 0u);
  EXPECT_EQ(wf->workflows[0].wire_bytes, 1568u);
}

// Older history records held an unknown fault function and empty texts as "" rather than null.
TEST(RunResultJson, EmptyTextReadsAsNone) {
  Json doc = to_json(full_run());
  doc["images"][1]["fault"]["function"] = "";
  doc["images"][0]["error"] = "";
  auto read = run_result_from_json(doc);
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->images[1].fault->function, "");
  EXPECT_EQ(dump_json(to_json(*read)), dump_json(to_json(full_run())));
}

struct Bad {
  const char* what;
  std::function<void(Json&)> edit;
  const char* message;
};

TEST(RunResultJson, ErrorsNameTheJsonPath) {
  auto op = [](Json& d) -> Json& { return d["images"][0]["operations"][0]; };
  const Bad cases[] = {
      {"count as text", [&](Json& d) { op(d)["statistics"]["cycles"]["count"] = "3"; },
       "images[0].operations[0].statistics.cycles.count: expected a non-negative integer that "
       "fits 64 bits"},
      {"unknown KAT status", [&](Json& d) { op(d)["kat"]["status"] = "pass"; },
       "images[0].operations[0].kat.status: unknown KAT status 'pass'; expected passed, failed "
       "or not-run"},
      {"missing statistics", [&](Json& d) { op(d).erase("statistics"); },
       "images[0].operations[0].statistics: missing"},
      {"missing provenance key", [](Json& d) { d["images"][1]["provenance"].erase("elf_sha256"); },
       "images[1].provenance.elf_sha256: missing"},
      {"missing fault function", [](Json& d) { d["images"][1]["fault"].erase("function"); },
       "images[1].fault.function: missing"},
      {"pc above 32 bits", [](Json& d) { d["images"][1]["fault"]["pc"] = 4294967296ull; },
       "images[1].fault.pc: expected a non-negative integer that fits 32 bits"},
      {"error as number", [&](Json& d) { op(d)["error"] = 5; },
       "images[0].operations[0].error: expected a string or null"},
      {"heap start negative", [&](Json& d) { op(d)["memory"]["heap_start_bytes"] = -1; },
       "images[0].operations[0].memory.heap_start_bytes: expected null or a non-negative "
       "integer that fits 64 bits"},
      {"calls negative", [&](Json& d) { op(d)["primitive_calls"]["SHA-2"] = -2; },
       "images[0].operations[0].primitive_calls.SHA-2: expected a non-negative call count"},
      {"distinct inputs above 32 bits",
       [&](Json& d) { op(d)["distinct_inputs"] = 4294967296ull; },
       "images[0].operations[0].distinct_inputs: expected a non-negative integer that fits 32 "
       "bits"},
      {"unknown runs reason", [&](Json& d) { op(d)["runs_reason"] = "board"; },
       "images[0].operations[0].runs_reason: unknown runs reason 'board'; expected suite, "
       "command-line, fresh-inputs or fixed-inputs"},
      {"samples identical as text", [&](Json& d) { op(d)["samples_identical"] = "yes"; },
       "images[0].operations[0].samples_identical: expected true or false"},
      {"run order not strings", [](Json& d) { d["images"][0]["provenance"]["run_order"] = {1}; },
       "images[0].provenance.run_order: expected an array of strings"},
      {"fairness passed as text", [](Json& d) { d["fairness"][0]["passed"] = "yes"; },
       "fairness[0].passed: expected true or false"},
      {"fairness median null", [](Json& d) { d["fairness"][0]["median_cycles"][1] = nullptr; },
       "fairness[0].median_cycles[1]: expected a finite number"},
      {"workflow step cycles missing",
       [](Json& d) { d["workflows"][0]["steps"][0].erase("cycles"); },
       "workflows[0].steps[0].cycles: missing"},
      {"workflow wire bytes as text",
       [](Json& d) { d["workflows"][0]["wire_objects"]["mlkem512_enc.ciphertext"] = "768"; },
       "workflows[0].wire_objects.mlkem512_enc.ciphertext: expected a non-negative integer "
       "that fits 64 bits"},
      {"verdict tie missing", [](Json& d) { d["workflow_verdicts"][0]["others"][0].erase("tie"); },
       "workflow_verdicts[0].others[0].tie: missing"},
      {"workflows not an array", [](Json& d) { d["workflows"] = Json::object(); },
       "workflows: expected a JSON array"},
      {"root not an object", [](Json& d) { d = 3; },
       "(document): expected a JSON object with schema_version; is this the output of "
       "`fathom run --format json`?"},
  };
  for (const auto& c : cases) {
    Json doc = to_json(full_run());
    c.edit(doc);
    auto read = run_result_from_json(doc);
    ASSERT_FALSE(read.has_value()) << c.what;
    EXPECT_EQ(read.error().message, c.message) << c.what;
  }
}

ShardInfo full_shard() {
  ShardInfo shard;
  shard.index = 2;
  shard.count = 3;
  shard.selection_sha256 = std::string(64, 'd');
  shard.selection.suite = "matrix";
  shard.selection.suite_argument = "tests/e2e/suites/shard.toml";
  shard.selection.suite_sha256 = std::string(64, 'e');
  shard.selection.images = {{"mbedtls", "sim-m33"}, {"mbedtls", "sim-m4"}, {"wolfssl", "sim-m33"}};
  shard.selection.runs = 2;
  shard.selection.warmup = 0;
  shard.selection.operations = {"sha256_64", "hmac_sha256"};
  shard.selection.cycle_budget = 50'000'000'000ULL;
  shard.selection.sim_hooks = "per-instruction";
  shard.selection.target = "sim";
  shard.selection.cross_check = "qemu";
  return shard;
}

// A whole run's "shard" is null; a shard's result keeps its part and selection.
TEST(RunResultJson, ShardRoundTripsAndIsNullForAWholeRun) {
  EXPECT_TRUE(to_json(full_run())["shard"].is_null());
  EXPECT_EQ(to_json(full_run()).back(), nullptr);
  RunResult run = full_run();
  run.shard = full_shard();
  const std::string written = text_of(run);
  const RunResult read = read_back(written);
  EXPECT_EQ(text_of(read), written);
  ASSERT_TRUE(read.shard.has_value());
  EXPECT_EQ(read.shard->index, 2u);
  EXPECT_EQ(read.shard->count, 3u);
  EXPECT_EQ(read.shard->selection_sha256, std::string(64, 'd'));
  EXPECT_EQ(read.shard->selection, full_shard().selection);
  // No target or cross-check override is null.
  run.shard->selection.target.clear();
  run.shard->selection.cross_check.clear();
  const Json doc = to_json(run);
  EXPECT_TRUE(doc["shard"]["selection"]["target"].is_null());
  EXPECT_TRUE(doc["shard"]["selection"]["cross_check"].is_null());
  EXPECT_EQ(read_back(dump_json(doc)).shard->selection.target, "");
}

// A cross-check round-trips, with the second target's reuse time when its figures were
// stored ones and null when they were measured in the run.
TEST(RunResultJson, CrossCheckRoundTripsWithItsReuse) {
  RunResult run = full_run();
  CrossCheck c;
  c.target = "sim";
  c.operations_compared = 3;
  c.cycle_operations_compared = 2;
  c.differences = {"sha256_64: run 0: 10 instructions on qemu, 11 on sim (+1)"};
  c.reused_from = "2026-12-04T02:45:10Z";
  run.images[0].cross_check = c;
  const std::string written = text_of(run);
  const RunResult read = read_back(written);
  EXPECT_EQ(text_of(read), written);
  ASSERT_TRUE(read.images[0].cross_check.has_value());
  EXPECT_EQ(read.images[0].cross_check->reused_from, "2026-12-04T02:45:10Z");
  EXPECT_EQ(read.images[0].cross_check->differences, c.differences);
  EXPECT_EQ(read.images[0].cross_check->cycle_operations_compared, 2u);

  run.images[0].cross_check->reused_from.clear();
  Json doc = to_json(run);
  EXPECT_TRUE(doc["images"][0]["cross_check"]["reused_from"].is_null());
  // Written before the key existed: read as measured in the run.
  doc["images"][0]["cross_check"].erase("reused_from");
  EXPECT_EQ(read_back(dump_json(doc)).images[0].cross_check->reused_from, "");
}

TEST(RunResultJson, ShardErrorsNameTheJsonPath) {
  const Bad cases[] = {
      {"index 0", [](Json& d) { d["shard"]["index"] = 0; }, "shard.index: expected 1 to count (3)"},
      {"index above count", [](Json& d) { d["shard"]["index"] = 4; },
       "shard.index: expected 1 to count (3)"},
      {"count 0", [](Json& d) { d["shard"]["count"] = 0; }, "shard.count: expected at least 1"},
      {"selection missing", [](Json& d) { d["shard"].erase("selection"); },
       "shard.selection: missing"},
      {"image board missing", [](Json& d) { d["shard"]["selection"]["images"][1].erase("board"); },
       "shard.selection.images[1].board: missing"},
      {"runs as text", [](Json& d) { d["shard"]["selection"]["runs"] = "2"; },
       "shard.selection.runs: expected a non-negative integer that fits 32 bits"},
  };
  for (const auto& c : cases) {
    RunResult run = full_run();
    run.shard = full_shard();
    Json doc = to_json(run);
    c.edit(doc);
    auto read = run_result_from_json(doc);
    ASSERT_FALSE(read.has_value()) << c.what;
    EXPECT_EQ(read.error().message, c.message) << c.what;
  }
}

TEST(RunResultJson, PartReadersNameTheirPath) {
  auto fault = fault_from_json(Json::parse(R"({"kind":"hardfault","pc":-1})"), "stored fault");
  ASSERT_FALSE(fault.has_value());
  EXPECT_EQ(fault.error().message,
            "stored fault.pc: expected a non-negative integer that fits 32 bits");
  auto samples = samples_from_json(Json::parse("[1, 2.5]"), "stored samples");
  ASSERT_FALSE(samples.has_value());
  EXPECT_EQ(samples.error().message,
            "stored samples[1]: expected a non-negative integer that fits 64 bits");
  auto vectors = kat_vectors_from_json(Json::parse(R"([{"name":"v"}])"), "stored KAT vectors");
  ASSERT_FALSE(vectors.has_value());
  EXPECT_EQ(vectors.error().message, "stored KAT vectors[0].passed: missing");
  auto provenance = provenance_from_json(to_json(full_provenance("sim-m33")), "p");
  ASSERT_TRUE(provenance.has_value()) << provenance.error().message;
  EXPECT_EQ(provenance->run_order, full_provenance("sim-m33").run_order);
}

}  // namespace
}  // namespace fathom::model
