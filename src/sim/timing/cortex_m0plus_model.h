#pragma once
// Cortex-M0+ (ARMv6-M): the TRM "Instruction set summary" cycle counts (ARM DDI 0484C, section
// 3.3) for its two-stage pipeline, plus the board's flash wait states. No load pipelining,
// no alignment effects, no IT, no divide. The multiplier is a board option (TRM: "MULS 1 or
// 32 cycles, depending on the multiplier implementation").
#include <memory>

#include "sim/timing/core_timing_model.h"
#include "sim/timing/fetch_model.h"

namespace fathom::sim::timing {

class CortexM0PlusModel final : public CoreTimingModel {
 public:
  std::unique_ptr<CoreTimingModel> clone() const override {
    return std::make_unique<CortexM0PlusModel>(*this);
  }
  explicit CortexM0PlusModel(const model::Board& board)
      : fetch_(board), small_multiplier_(board.multiplier == model::Multiplier::kSmall) {}

  std::string name() const override;
  uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) override;
  // Cortex-M0+ TRM (ARM DDI 0484C) 2.3 "Interrupt latency": 15 cycles with zero wait states.
  // Arm publishes no exit figure for the M0+; this model assumes the M3/M4's 10 (8 words
  // unstacked one per cycle plus the refill) — unverified.
  uint32_t exception_entry_cycles() const override { return 15; }
  uint32_t exception_return_cycles() const override { return 10; }
  // State: expected_next_ and the fetch word held.
  bool has_compact_state() const override { return fetch_.has_compact_state(); }
  uint64_t state_key(uint32_t address) const override {
    return uint64_t{expected_next_ == address} | uint64_t{fetch_.holds_word_of(address)} << 1;
  }
  State state() const override {
    return {{0, uint64_t{expected_next_} | uint64_t{fetch_.held_word()} << 32}};
  }
  void set_state(const State& state) override {
    expected_next_ = static_cast<uint32_t>(state.words[1]);
    fetch_.set_held_word(static_cast<uint32_t>(state.words[1] >> 32));
  }
  // No divider (ARMv6-M), so nothing reads operand values.
  bool cost_reads_operands(const Instruction&) const override { return false; }

 private:
  FetchModel fetch_;
  bool small_multiplier_;
  uint32_t expected_next_ = UINT32_MAX;
};

}  // namespace fathom::sim::timing
