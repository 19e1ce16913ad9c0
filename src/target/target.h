#pragma once
// A Target runs one firmware image and reports what happened: the in-process simulator
// (target/sim/sim_target.h), a QEMU machine (target/qemu_target.h) or a real board flashed by a
// command and read over a UART (target/serial_target.h). Every implementation yields the same
// facts (the decoded records); what each can measure beyond them is in TargetRun::measured.
// target/target_factory.h picks the implementation from the board description.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "model/run_result.h"
#include "util/error.h"
#include "util/run_meter.h"

namespace fathom::target {

// What every target understands (written into the image's `fathom_params` object,
// target/run_parameters.h).
struct RunParameters {
  uint32_t runs = 10;                    // timed runs per operation
  // Timed runs of the named operations instead of `runs` (pipeline/run_selection.h); an
  // operation not named here makes `runs`.
  std::map<std::string, uint32_t> operation_runs;
  uint32_t warmup = 1;                   // untimed runs before them
  std::vector<std::string> operations;   // run only these, in this order; empty = all
  // Stack and heap measured in each operation's first timed run instead of an extra untimed
  // run after them: for a simulated target (Target::deterministic()), where painting the stack
  // before the first counter read cannot change a count; a board keeps the extra run.
  bool memory_in_timed_run = false;
  // `fathom ct` (docs/CT.md): an operation with a secret hook runs variant r of its secret in
  // run r, its public inputs fixed, announced by a SECRETS record
  // (OperationResult::secret_variants).
  bool secret_variants = false;
  uint32_t secret_first = 0;  // the variant of timed run 0 (run r: secret_first + r)
  bool secret_fixed = false;  // with secret_variants: variant secret_first in every run (control)
  // The simulator stops the image after this many cycles; QEMU and serial targets use their
  // own time limits (board.toml [serial] timeouts).
  uint64_t cycle_budget = 2'000'000'000ULL;
};

// One image to run: the ELF on disk (what a QEMU or serial target hands to its tools), the same
// ELF loaded once by the caller, and the board it was built for.
struct ImageToRun {
  std::filesystem::path elf_path;
  const elf::ElfImage* elf = nullptr;
  const model::Board* board = nullptr;
  // Named function groups whose share of each operation's cycles a target that observes
  // execution measures (OperationResult::primitive_share); others ignore them.
  std::map<std::string, std::vector<std::string>> primitive_groups;
  // Where a target that can tell shows how far the run has got (the simulator: instructions
  // and the operation each machine runs); null: nowhere.
  util::RunMeter* meter = nullptr;
};

// What a target measured besides the records' facts (KATs, stack and heap from MEM, ...).
struct Measured {
  bool cycles = false;        // OperationResult::cycles are the core's cycles
  bool instructions = false;  // OperationResult::instructions are retired instructions
  bool observation = false;   // the target watched execution (simulator memory, shares)
};

// What one image run produced. Partial results survive a fault or a damaged stream.
struct TargetRun {
  bool completed = false;                 // END record received and consistent
  std::optional<model::Fault> fault;
  std::vector<std::string> errors;        // protocol problems, one line each
  std::vector<model::OperationResult> operations;
  std::vector<std::string> console_log;   // free-text lines from the firmware
  uint64_t total_cycles = 0;              // 0 when !measured.cycles
  uint64_t total_instructions = 0;        // 0 when !measured.instructions
  // Of total_instructions: counted but not timed (the simulator's KAT phase, SimSettings::
  // untimed_kat_phase); total_cycles covers the others only.
  uint64_t untimed_instructions = 0;
  std::string timing_model;               // empty for targets that measure real hardware
  std::string isolation;                  // the ISOLATION record's method ("snapshot", "none")
  std::vector<std::string> run_order;     // operations in the order they were timed
  double host_seconds = 0;
  // Machines that ran the image's operations at once (the simulator: target/sim/slot_run.h);
  // never changes a result, so not part of it.
  unsigned host_machines = 1;
  // The machines' slots could not be combined and one machine ran the image again (the
  // simulator: target/sim/slot_run.h); the result is that machine's, the time doubled.
  bool host_ran_again = false;
  Measured measured;
  // Where the numbers came from, for the provenance: "target" ("sim", "qemu", "serial") and
  // target-specific facts ("qemu" version, serial "port", "probe", "flash" command, ...).
  std::map<std::string, std::string> origin;
};

class Target {
 public:
  virtual ~Target() = default;
  virtual std::string name() const = 0;
  // Everything about this target's settings that can change a result (for the result cache
  // key): the simulator's hook mode and observers, a QEMU binary's version, a serial board's
  // port. Two runs of one image with equal keys give equal results on a deterministic target.
  virtual std::string measurement_key() const = 0;
  // Whether results of this target may be reused from the result cache (deterministic
  // targets: the simulator, QEMU; never a real board).
  virtual bool deterministic() const = 0;
  // An error only when the image cannot be run at all (unusable ELF, missing tool, bad
  // parameters); faults and protocol problems are data in TargetRun.
  virtual util::Result<TargetRun> run(const ImageToRun& image, const RunParameters& params) = 0;
};

}  // namespace fathom::target
