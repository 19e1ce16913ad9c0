#pragma once
// The embedded default target: the in-process simulated Cortex-M (sim::Machine). It owns
// everything simulator-specific: the hook mode, the observers (memory watch, the primitive-share
// call tracker, a caller's profiler), the CYCCNT probes and the memory cross-check.
#include <vector>

#include "sim/execution_observer.h"
#include "sim/machine.h"
#include "target/sim_settings.h"
#include "target/target.h"

namespace fathom::target {

class SimTarget final : public Target {
 public:
  // `observers` (optional, not owned, may contain nullptr) watch every run besides the
  // target's own (`fathom profile`'s call tracker, `fathom bench`'s).
  explicit SimTarget(SimSettings settings = {}, std::vector<sim::ExecutionObserver*> observers = {})
      : settings_(settings), observers_(std::move(observers)) {}
  std::string name() const override { return "sim"; }
  std::string measurement_key() const override;
  bool deterministic() const override { return true; }
  util::Result<TargetRun> run(const ImageToRun& image, const RunParameters& params) override;

  // A bare-metal ELF that is not a fathom image (`fathom profile FILE.elf`): loaded and run to
  // its exit (semihosting or the console's EXIT register), fault or `cycle_budget`, with
  // `observer` (not owned) watching; `vector_table`, when given, is written at the board's
  // flash origin after the load (target/sim/elf_board.h). Only the load can fail.
  struct BareMetalRun {
    sim::RunOutcome outcome;
    std::string timing_model;
  };
  static util::Result<BareMetalRun> run_bare_metal(const elf::ElfImage& image,
                                                   const model::Board& board,
                                                   sim::ExecutionObserver* observer,
                                                   uint64_t cycle_budget,
                                                   const std::vector<uint8_t>& vector_table = {});

  static sim::HookMode hook_mode(SimSettings::Hooks hooks);

  // One line on the engine under this process (`fathom bench` prints it): whether Unicorn's
  // per-store page collection is skipped, and the libunicorn build (sim/unicorn_store_shortcut.h).
  static std::string engine_note();

 private:
  SimSettings settings_;
  std::vector<sim::ExecutionObserver*> observers_;
};

}  // namespace fathom::target
