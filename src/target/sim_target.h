#pragma once
// The embedded default target: the in-process simulated Cortex-M (sim::Machine).
#include "sim/machine.h"
#include "target/target.h"

namespace fathom::target {

class SimTarget final : public Target {
 public:
  // `observer` (optional, not owned) watches the run (sim::Machine::set_observer).
  explicit SimTarget(sim::HookMode mode = sim::HookMode::kBlock,
                     sim::ExecutionObserver* observer = nullptr)
      : mode_(mode), observer_(observer) {}
  std::string name() const override { return "sim"; }
  util::Result<TargetRun> run(const RunRequest& request) override;

 private:
  sim::HookMode mode_;
  sim::ExecutionObserver* observer_;
};

}  // namespace fathom::target
