#pragma once
// The embedded default target: the in-process simulated Cortex-M (sim::Machine).
#include "sim/machine.h"
#include "target/target.h"

namespace fathom::target {

class SimTarget final : public Target {
 public:
  explicit SimTarget(sim::HookMode mode = sim::HookMode::kBlock) : mode_(mode) {}
  std::string name() const override { return "sim"; }
  util::Result<TargetRun> run(const RunRequest& request) override;

 private:
  sim::HookMode mode_;
};

}  // namespace fathom::target
