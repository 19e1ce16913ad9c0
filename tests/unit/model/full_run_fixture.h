#pragma once
// A results model with every field set (every optional, every KatStatus, a fault in an unknown
// function, workflows evaluated and failed, fairness and verdicts), and one with every optional
// empty: the inputs of the results-JSON tests (model/run_result_json.h) and of the stores that
// keep that JSON (history, result cache). tests/fixtures/previous_results holds the same full
// run as an older fathom wrote it.
#include <string>

#include "model/run_result.h"
#include "model/statistics.h"

namespace fathom::model::fixture {

inline Provenance full_provenance(const std::string& board) {
  Provenance p;
  p.tool_version = "0.1.0";
  p.tool_git_revision = "0123456789ab";
  p.compiler = "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205";
  p.cflags = {"-O2", "-mthumb"};
  p.board = board;
  p.core = "cortex-m33";
  p.clock_hz = 128'000'000;
  p.stack_reserve_bytes = 32768;
  p.library = "mbedtls+pqclean";
  p.library_version = "3.6.6";
  p.libc = "newlib-nano";
  p.config_defines = {"MBEDTLS_X=1"};
  p.config_undefines = {"MBEDTLS_ECP_NIST_OPTIM"};
  p.source_sha256 = {{"mbedtls", std::string(64, 'a')}, {"pqclean", std::string(64, 'c')}};
  p.timing_model = "cortex-m33";
  p.elf_sha256 = std::string(64, 'b');
  p.runs = 3;
  p.warmup = 1;
  p.isolation = "snapshot";
  p.run_order = {"sha256_1k", "mlkem512_keygen"};
  p.reused_from = "2026-11-30T03:12:45Z";
  return p;
}

// An operation with every optional figure set.
inline OperationResult full_operation(const std::string& name) {
  OperationResult op;
  op.operation = name;
  op.kat = KatStatus::kPassed;
  op.kat_vectors = {{name + "-v1", true}, {name + "-v2", true}};
  op.cycle_samples = {1280, 1281, 1290};
  op.instruction_samples = {640, 641, 645};
  op.cycles = summarize(op.cycle_samples);
  op.instructions = summarize(op.instruction_samples);
  op.peak_stack_bytes = 1024;
  op.heap_peak_bytes = 2048;
  op.allocations = 12;
  op.heap_start_bytes = 96;
  op.sim_peak_stack_bytes = 1030;
  op.sim_heap_peak_bytes = 2048;
  op.sim_allocations = 12;
  op.memory_mismatch = "stack: harness 1024, simulator 1030";
  op.primitive_share = {{"SHA-2", 0.9375}, {"bignum", 0.0}};
  op.primitive_calls = {{"SHA-2", 17.5}, {"bignum", 0.0}};
  op.distinct_inputs = 3;
  op.requested_runs = 2;
  op.runs_reason = RunsReason::kFixedInputs;
  op.samples_identical = false;
  op.object_bytes = {{"public_key", 800}, {"secret_key", 1632}};
  op.not_timed = "library gate: its known-answer phase is the check";
  op.error = "an error beside the figures";
  return op;
}

// Every field of the model set, every KatStatus, a fault in an unknown function, workflows
// (evaluated and failed), fairness and verdicts.
inline RunResult full_run() {
  RunResult run;
  run.suite = "device";
  ImageResult good;
  good.configuration = "mbedtls.newlib-nano.O2";
  good.board = "sim-m33";
  good.completed = true;
  good.provenance = full_provenance("sim-m33");
  good.size = ImageSize{100'000, 20'000};
  good.total_cycles = 18'446'744'073'709'551'615ull;  // the largest uint64 survives
  good.total_instructions = 7;
  good.untimed_instructions = 5;  // of the 7
  good.operations.push_back(full_operation("sha256_1k"));
  OperationResult not_run;
  not_run.operation = "mlkem512_keygen";
  not_run.kat = KatStatus::kNotRun;
  not_run.error = "image stopped before its KAT";
  good.operations.push_back(not_run);
  good.console_log = {"hello", "line with | and \"quotes\""};
  run.images.push_back(good);

  ImageResult bad;
  bad.configuration = "broken";
  bad.board = "sim-m4";
  bad.error = "image stopped: hardfault";
  bad.fault = Fault{"hardfault", 0xFFFFFFFFu, "", "bad access"};
  bad.provenance = full_provenance("sim-m4");
  OperationResult failed;
  failed.operation = "sha256_1k";
  failed.kat = KatStatus::kFailed;
  failed.kat_vectors = {{"v1", false}, {"v2", true}};
  failed.error = "known-answer test failed";
  failed.object_bytes = {{"digest", 32}};
  bad.operations.push_back(failed);
  run.images.push_back(bad);

  run.fairness.push_back(FairnessCheck{"mbedtls, newlib-nano, -O2 on sim-m33", "hkdf_sha256",
                                       {"a", "b"}, {1000.5, 1002.0}, 0.15, 0.5, true});
  WorkflowResult wf;
  wf.workflow = "receive-new-key";
  wf.variant = "post-quantum-512";
  wf.configuration = "mbedtls.newlib-nano.O2";
  wf.board = "sim-m33";
  wf.clock_hz = 128'000'000;
  wf.steps = {WorkflowStepResult{"key establishment", {"mlkem512_keygen", "mlkem512_dec"},
                                 123456.5, 4096, 512}};
  wf.total_cycles = 123456.5;
  wf.wire_objects = {{"mlkem512_keygen.public_key", 800}, {"mlkem512_enc.ciphertext", 768}};
  wf.stored_objects = {{"mlkem512_keygen.secret_key", 1632}};
  wf.wire_bytes = 1568;
  wf.stored_bytes = 1632;
  wf.peak_stack_bytes = 4096;
  wf.heap_peak_bytes = 512;
  run.workflows.push_back(wf);
  WorkflowResult missing;
  missing.workflow = "receive-new-key";
  missing.variant = "classical";
  missing.error = "operation ecdh_p256_keygen is not in this image";
  run.workflows.push_back(missing);
  WorkflowVerdict verdict;
  verdict.workflow = "receive-new-key";
  verdict.configuration = "mbedtls.newlib-nano.O2";
  verdict.board = "sim-m33";
  verdict.cheapest = "post-quantum-512";
  verdict.cheapest_cycles = 123456.5;
  verdict.others = {{"classical", 200000.0, 1.62, false}, {"hybrid", 123500.0, 1.0003, true}};
  run.workflow_verdicts.push_back(verdict);
  return run;
}

// The same shapes with every optional empty and every list empty.
inline RunResult empty_run() {
  RunResult run;
  ImageResult img;
  OperationResult op;
  img.operations.push_back(op);
  run.images.push_back(img);
  return run;
}

}  // namespace fathom::model::fixture
