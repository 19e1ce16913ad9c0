#pragma once
// The results model: the one shape every consumer (reports, compare, history) reads.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/analysis.h"
#include "model/shard.h"

#include "model/statistics.h"

namespace fathom::model {

enum class KatStatus { kNotRun, kPassed, kFailed };

// The names of KatStatus in every results format (JSON "kat.status", the history database's
// kat_status column): "not-run", "passed", "failed". Human-facing words ("pass", "FAIL") are
// the text writers' own.
std::string_view to_string(KatStatus kat);
// The KatStatus named `name` (one of the names above); std::nullopt for anything else.
std::optional<KatStatus> parse_kat_status(std::string_view name);

// Why an operation made the number of timed runs it made (pipeline/run_selection.h).
enum class RunsReason {
  kUnknown,      // not recorded (results written before the reason was)
  kSuite,        // the suite's `runs` (a target that is not deterministic, or runs <= 2)
  kCommandLine,  // `--runs N`, applied to every operation
  kFreshInputs,  // the suite's `runs`: the operation is declared in `fresh_inputs`
  kFixedInputs,  // fewer runs: a deterministic target repeats a fixed input exactly
};

// The names of RunsReason in the results JSON ("runs_reason"): "suite", "command-line",
// "fresh-inputs", "fixed-inputs"; kUnknown has none (null).
std::string_view to_string(RunsReason reason);
// The RunsReason named `name` (one of the names above); std::nullopt for anything else.
std::optional<RunsReason> parse_runs_reason(std::string_view name);
// For people: "suite", "command line", "suite: declared in fresh_inputs", "deterministic
// target: inputs fixed per run"; "" for kUnknown.
std::string_view runs_reason_text(RunsReason reason);

struct KatVector {
  std::string name;
  bool passed = false;
};

// One operation in one image.
struct OperationResult {
  std::string operation;            // "ecdsa_p256_sign"
  KatStatus kat = KatStatus::kNotRun;
  std::vector<KatVector> kat_vectors;
  // Timed runs; empty unless the KAT passed in this image.
  std::vector<uint64_t> cycle_samples;
  std::vector<uint64_t> instruction_samples;  // only from targets that count instructions
  std::optional<Statistics> cycles;
  std::optional<Statistics> instructions;
  std::optional<uint64_t> peak_stack_bytes;
  // Heap of the run that measured memory (the first timed run on a simulated target, else an
  // extra untimed run): the peak bytes the operation itself needed above what was in use when
  // that run started (heap_start_bytes), and its successful allocation calls.
  std::optional<uint64_t> heap_peak_bytes;
  std::optional<uint64_t> allocations;
  std::optional<uint64_t> heap_start_bytes;
  // The same run's memory as the simulator saw it (profile::MemoryWatch,
  // docs/PROFILER.md), to cross-check the harness's figures above: the run function's entry SP
  // minus the deepest SP of the execution; the peak bytes in use (counting what was in use at
  // its start) and the allocation calls, seen at the allocator's entry
  // and exit. Empty from a target that does not observe execution.
  std::optional<uint64_t> sim_peak_stack_bytes;
  std::optional<uint64_t> sim_heap_peak_bytes;  // above the bytes in use at its start
  std::optional<uint64_t> sim_allocations;
  // Why the two memory measurements disagree (stack by more than 4 bytes, or any heap
  // figure); empty if they agree or one is missing. One of them is wrong: the run fails.
  std::string memory_mismatch;
  // Share of the operation's cycles spent under each named group of functions ("SHA-2",
  // "bignum", ...; groups are defined per library in data), as a fraction in [0, 1]. Cycles
  // under nested groups count for each of them. Empty if the library defines no groups.
  std::map<std::string, double> primitive_share;
  // Per group of primitive_share: the outermost calls into the group per execution of the
  // operation (mean over every execution; exact for an operation whose input never changes).
  std::map<std::string, double> primitive_calls;
  // Non-zero when each timed run used a distinct input (the firmware's INPUTS record,
  // docs/PROTOCOL.md): the number of distinct inputs, equal to the timed runs. The samples are
  // then a distribution over inputs (e.g. ML-DSA signing over that many messages), not
  // repetitions of one input. 0: every run repeated the same input.
  uint32_t distinct_inputs = 0;
  // Non-zero when each timed run used another variant of the operation's secret, its public
  // inputs fixed (the firmware's SECRETS record, `fathom ct`): the number of variants, equal to
  // the timed runs. In results.json only then (a plain run never asks for variants; the result
  // cache keeps `fathom ct`'s measurements as results.json).
  uint32_t secret_variants = 0;
  // The timed runs the host asked the harness for and why (pipeline/run_selection.h); 0 and
  // kUnknown when not recorded. The harness may make more (distinct_inputs above).
  uint32_t requested_runs = 0;
  RunsReason runs_reason = RunsReason::kUnknown;
  // Whether every timed run gave the same cycles (and instructions, where counted): what a
  // deterministic target must give for an operation whose input is fixed. Empty without
  // samples.
  std::optional<bool> samples_identical;
  // Sizes of the objects the operation produces or consumes, as the library's code defines them
  // (BYTES records): "public_key", "secret_key", "ciphertext", "shared_secret", "signature" ->
  // bytes. Empty if the workload reports none.
  std::map<std::string, uint64_t> object_bytes;
  std::string error;  // why there is no timing (KAT failure, fault, ...), empty if none
  // Why an operation whose KAT passed has no timing or memory figures by design, e.g. a library
  // gate whose timed run does nothing (pipeline/library_gate.h): any figure from that run would
  // not be the operation's cost. Empty for an ordinary operation. Not an error.
  std::string not_timed;

  // Measured with cycles (the simulator, a board with a cycle counter).
  bool has_timing() const {
    return kat == KatStatus::kPassed && cycles.has_value() && not_timed.empty();
  }
  // Measured by instructions only: the KAT passed and the target counted instructions but has
  // no cycle counter (QEMU); cycles and time are unavailable, never zero.
  bool has_instructions_only() const {
    return kat == KatStatus::kPassed && !cycles && instructions.has_value() &&
           not_timed.empty();
  }
  bool is_measured() const { return has_timing() || has_instructions_only(); }
};

// Where a number came from. Serialized as-is into JSON.
struct Provenance {
  std::string tool_version;
  std::string tool_git_revision;
  std::string compiler;          // "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205"
  std::vector<std::string> cflags;
  std::string board;
  std::string core;
  uint64_t clock_hz = 0;
  // The board's main stack reserve (model::Board::stack_bytes): an operation whose peak stack
  // exceeds it would overrun the stack on the part (report/stack_reserve.h). 0 if unknown.
  uint32_t stack_reserve_bytes = 0;
  std::string library;
  std::string library_version;
  std::string libc;              // "newlib", "newlib-nano", "picolibc" (model::kLibcNames)
  std::vector<std::string> config_defines;
  std::vector<std::string> config_undefines;
  std::map<std::string, std::string> source_sha256;  // source name -> SHA-256 of its archive
  std::string timing_model;
  // The target that ran the image ("sim", "qemu", "serial"; target/target.h) and what it says
  // about itself (QEMU's version, a board's serial port and probe, ...). A board's figures are
  // never mixed up with a simulator's: reports and compare keep the target apart.
  std::string target;
  std::map<std::string, std::string> target_details;
  std::string elf_sha256;
  uint32_t runs = 0;
  uint32_t warmup = 0;
  // How the operations were kept from influencing each other (docs/PROTOCOL.md "Isolation"):
  // "snapshot" (the simulator restored the post-boot machine state before each operation's
  // runs) or "none" (one pass: each operation ran in the state the previous ones left); and
  // the order in which their timed runs were made.
  std::string isolation;
  std::vector<std::string> run_order;
  // When the results were measured (ISO 8601 UTC, "2026-11-30T03:12:45Z") if this run reused
  // them from the result cache (pipeline/result_cache.h) instead of simulating again; empty
  // when they were measured in this run.
  std::string reused_from;
};

// A simulator or firmware fault that stopped an image.
struct Fault {
  std::string kind;      // "unmapped-read", "hardfault", "budget-exhausted", ...
  uint32_t pc = 0;
  std::string function;  // symbol containing pc, or "" if unknown
  std::string detail;
};

// Memory sizes of the linked image.
struct ImageSize {
  uint64_t flash_bytes = 0;  // text + rodata + data initializers
  uint64_t ram_bytes = 0;    // data + bss (without the stack and heap reserve)
};

// The same image run on a second target (`fathom run --cross-check sim`): two independent
// emulators of one ISA (QEMU and the simulator) must retire the same instructions per timed run
// of every operation, and agree on every KAT. Any difference is a finding: the run fails.
struct CrossCheck {
  std::string target;                    // the second target ("sim")
  size_t operations_compared = 0;        // operations measured by both
  std::vector<std::string> differences;  // one line each; empty = they agree
  size_t cycle_operations_compared = 0;  // of those, whose cycles both measured (compared too)
  // When the second target's figures came from the result cache: when they were measured
  // (pipeline/result_cache.h); empty when measured in this run.
  std::string reused_from;
};

// One configuration on one board: one firmware image.
struct ImageResult {
  std::string configuration;
  std::string board;
  bool completed = false;       // the image ran to its END record
  std::string error;            // build failure, fault, protocol error; empty if none
  std::optional<Fault> fault;
  Provenance provenance;
  std::optional<ImageSize> size;
  uint64_t total_cycles = 0;
  uint64_t total_instructions = 0;
  // Of total_instructions: executed but not timed (the simulator's KAT phase of a snapshot
  // image, counted only); total_cycles is the timing model's over the others.
  uint64_t untimed_instructions = 0;
  // Host wall time the target took to run the image. Not deterministic, so no report prints
  // it; `fathom bench` uses it for simulator speed.
  double host_seconds = 0;
  unsigned host_machines = 1;  // simulated machines that ran its operations at once (not in the JSON)
  // Those machines' slots could not be combined, so one machine ran the image again (not in
  // the JSON; the result is that machine's).
  bool host_ran_again = false;
  std::vector<OperationResult> operations;
  std::vector<std::string> console_log;  // non-record lines the firmware printed
  std::optional<CrossCheck> cross_check;
};

struct RunResult {
  static constexpr int kSchemaVersion = 1;
  std::string suite;
  std::vector<ImageResult> images;
  // Derived across images (src/analysis): the fairness control and device workflows.
  std::vector<FairnessCheck> fairness;
  std::vector<WorkflowResult> workflows;
  std::vector<WorkflowVerdict> workflow_verdicts;  // the cheapest variant per configuration
  // Set for a shard's result (`fathom run --shard i/N`): its images are that shard's only, and
  // the analyses above cover only them; `fathom merge` combines the shards into the whole run.
  std::optional<ShardInfo> shard;

  // True if every image completed, every KAT passed, no operation's memory measurements
  // disagree, no cross-check found a difference and every fairness check passed.
  bool all_passed() const;
};

}  // namespace fathom::model
