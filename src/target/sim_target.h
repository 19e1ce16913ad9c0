#pragma once
// The embedded default target: the in-process simulated Cortex-M (sim::Machine).
#include "target/target.h"

namespace fathom::target {

class SimTarget final : public Target {
 public:
  std::string name() const override { return "sim"; }
  util::Result<TargetRun> run(const RunRequest& request) override;
};

}  // namespace fathom::target
