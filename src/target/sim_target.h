#pragma once
// The embedded default target: the in-process simulated Cortex-M (sim::Machine).
#include "sim/machine.h"
#include "target/target.h"

namespace fathom::target {

class SimTarget final : public Target {
 public:
  // `observer` (optional, not owned) watches the run (sim::Machine::set_observer). With
  // `memory_watch`, a profile::MemoryWatch watches it too and every operation gets the
  // simulator's memory figures and their cross-check with the harness's
  // (OperationResult::sim_peak_stack_bytes...; docs/PROFILER.md). It never changes a count but
  // costs host time: about +10% over a run that already has an observer, +70% over one that
  // has none (the machine's observer path).
  explicit SimTarget(sim::HookMode mode = sim::HookMode::kBlock,
                     sim::ExecutionObserver* observer = nullptr, bool memory_watch = true)
      : mode_(mode), observer_(observer), memory_watch_(memory_watch) {}
  std::string name() const override { return "sim"; }
  util::Result<TargetRun> run(const RunRequest& request) override;

 private:
  sim::HookMode mode_;
  sim::ExecutionObserver* observer_;
  bool memory_watch_;
};

}  // namespace fathom::target
