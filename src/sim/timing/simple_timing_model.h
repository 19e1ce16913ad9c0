#pragma once
// An interim per-instruction-class model (docs/TIMING.md): the Cortex-M4 TRM cycle table with a
// fixed pipeline refill, plus the load-after-load pipelining rule. The detailed per-core models
// replace it behind the same interface.
#include "sim/timing/core_timing_model.h"

namespace fathom::sim::timing {

class SimpleTimingModel final : public CoreTimingModel {
 public:
  // `refill_cycles`: P, the pipeline refill after a taken branch (TRM: 1 to 3).
  // `divide_cycles`: fixed UDIV/SDIV cost (TRM: 2 to 12, data-dependent).
  SimpleTimingModel(std::string core, uint32_t refill_cycles, uint32_t divide_cycles)
      : core_(std::move(core)), refill_(refill_cycles), divide_(divide_cycles) {}

  std::string name() const override { return "simple-" + core_ + "/1"; }
  uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) override;

 private:
  std::string core_;
  uint32_t refill_;
  uint32_t divide_;
  bool previous_was_load_ = false;
};

}  // namespace fathom::sim::timing
