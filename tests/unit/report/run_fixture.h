#pragma once
// A small RunResult for the report writer tests: two configurations (three with a broken
// build) on sim-m33 at 128 MHz.
//   sha256_1k        passes in both; medians 1,280 and 2,560 cycles (ratio 2.00, 10.00 µs)
//   ecdsa_p256_sign  passes in the baseline (median 4,000,000); its KAT fails in the second
//                    image, which nevertheless holds poisoned samples (987654321 cycles,
//                    123456789 instructions, 555555 stack bytes) that no writer may print.
#include <sstream>
#include <string>

#include "model/run_result.h"
#include "report/table_writer.h"

namespace fathom::report::fixture {

inline constexpr uint64_t kPoisonCycles = 987654321;
inline constexpr uint64_t kPoisonInstructions = 123456789;
inline constexpr uint64_t kPoisonStackBytes = 555555;

inline model::OperationResult passed_op(const std::string& name, std::vector<uint64_t> cycles) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kPassed;
  op.kat_vectors = {{name + "-v1", true}};
  op.cycle_samples = cycles;
  for (auto c : cycles) op.instruction_samples.push_back(c / 2);
  op.cycles = model::summarize(op.cycle_samples);
  op.instructions = model::summarize(op.instruction_samples);
  op.peak_stack_bytes = 1024;
  op.heap_peak_bytes = 2048;
  op.allocations = 12;
  return op;
}

inline model::ImageResult image(const std::string& configuration) {
  model::ImageResult img;
  img.configuration = configuration;
  img.board = "sim-m33";
  img.completed = true;
  img.provenance.board = "sim-m33";
  img.provenance.core = "cortex-m33";
  img.provenance.clock_hz = 128'000'000;
  img.provenance.library = "mbedtls";
  img.provenance.library_version = "3.6.6";
  img.provenance.libc = "newlib-nano";
  img.provenance.cflags = {"-O2"};
  img.provenance.source_sha256 = {{"mbedtls", std::string(64, 'a')}};
  img.provenance.runs = 3;
  img.provenance.warmup = 1;
  img.size = model::ImageSize{100000, 20000};
  return img;
}

// `configurations` = 1, 2 or 3 (the third is a build that faulted).
inline model::RunResult make_run(int configurations) {
  model::RunResult run;
  run.suite = "default";
  auto base = image("mbedtls");
  base.operations.push_back(passed_op("sha256_1k", {1280, 1280, 1290}));
  base.operations.push_back(passed_op("ecdsa_p256_sign", {4'000'000, 4'000'000, 4'000'100}));
  run.images.push_back(base);
  if (configurations >= 2) {
    auto second = image("mbedtls-no-nist-optim");
    second.provenance.config_undefines = {"MBEDTLS_ECP_NIST_OPTIM"};
    second.operations.push_back(passed_op("sha256_1k", {2560, 2560, 2570}));
    model::OperationResult failed;
    failed.operation = "ecdsa_p256_sign";
    failed.kat = model::KatStatus::kFailed;
    failed.kat_vectors = {{"rfc6979-a.2.5-sha256", false}, {"rfc6979-a.2.5-sha384", true}};
    failed.cycle_samples = {kPoisonCycles, kPoisonCycles};
    failed.instruction_samples = {kPoisonInstructions, kPoisonInstructions};
    failed.cycles = model::summarize(failed.cycle_samples);
    failed.instructions = model::summarize(failed.instruction_samples);
    failed.peak_stack_bytes = kPoisonStackBytes;
    failed.error = "known-answer test failed";
    second.operations.push_back(failed);
    run.images.push_back(second);
  }
  if (configurations >= 3) {
    auto broken = image("broken");
    broken.completed = false;
    broken.error = "image stopped: \"hardfault\", see console, log";
    broken.fault = model::Fault{"hardfault", 0x1234, "foo", "bad access"};
    run.images.push_back(broken);
  }
  return run;
}

// What `Writer` (a report writer: TableWriter, JsonWriter, ...) writes for `run`.
template <typename Writer>
std::string written(const model::RunResult& run) {
  std::ostringstream out;
  Writer().write(run, out);
  return out.str();
}

// The table with every column and whole names (fathom run --wide, or a file of --out).
inline std::string wide_table(const model::RunResult& run) {
  std::ostringstream out;
  TableWriter(TableOptions{true, 0}).write(run, out);
  return out.str();
}

// make_run(1) with its image on a second board too: sim-m4 at 64 MHz.
inline model::RunResult make_run_on_two_boards() {
  auto run = make_run(1);
  auto other = run.images[0];
  other.board = "sim-m4";
  other.provenance.board = "sim-m4";
  other.provenance.clock_hz = 64'000'000;
  run.images.push_back(other);
  return run;
}

}  // namespace fathom::report::fixture
