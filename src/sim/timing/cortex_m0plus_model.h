#pragma once
// Cortex-M0+ (ARMv6-M): the TRM "Instruction set summary" cycle counts (ARM DDI 0484C, section
// 3.3) for its two-stage pipeline, plus the board's flash wait states. No load pipelining,
// no alignment effects, no IT, no divide. The multiplier is a board option (TRM: "MULS 1 or
// 32 cycles, depending on the multiplier implementation").
#include "sim/timing/core_timing_model.h"
#include "sim/timing/fetch_model.h"

namespace fathom::sim::timing {

class CortexM0PlusModel final : public CoreTimingModel {
 public:
  explicit CortexM0PlusModel(const model::Board& board)
      : fetch_(board), small_multiplier_(board.multiplier == model::Multiplier::kSmall) {}

  std::string name() const override;
  uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) override;

 private:
  FetchModel fetch_;
  bool small_multiplier_;
  uint32_t expected_next_ = UINT32_MAX;
};

}  // namespace fathom::sim::timing
