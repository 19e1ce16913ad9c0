#pragma once
// Cortex-M33 (ARMv8-M Mainline with DSP and FPU). Arm publishes no cycle table for the M33;
// this model starts from the M4 table and applies the measured differences (DWT
// micro-benchmarks on an RP2350, M33 r1p0, in shared/reference/cortex-m-timing.md):
// single-cycle loads with a 2-cycle load-to-use latency, LDRD/STRD 2, LDM/STM N, 2-cycle
// result latency of multiplies, extend-and-add and operand-2 shifts (register or shifted
// constant) with the accumulator chains between them, two-stage flag-setting forms taking 2,
// VFMA blocking the FPU for two cycles, and the measured (limited) dual issue of 16-bit
// pairs: NOP + arithmetic or load/store, a 16-bit branch in the second slot, IT after the
// preceding instruction. docs/TIMING.md, section "Cortex-M33".
#include <memory>

#include "sim/timing/core_timing_model.h"
#include "sim/timing/fetch_model.h"

namespace fathom::sim::timing {

class CortexM33Model final : public CoreTimingModel {
 public:
  std::unique_ptr<CoreTimingModel> clone() const override {
    return std::make_unique<CortexM33Model>(*this);
  }
  explicit CortexM33Model(const model::Board& board) : fetch_(board) {}

  std::string name() const override;
  void set_operand_values(uint32_t first, uint32_t second) override {
    operands_[0] = first;
    operands_[1] = second;
  }
  uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) override;
  // Arm's Cortex-M33 product documentation gives an interrupt latency of 12 cycles (no
  // security state change, no FP context); the M33 TRM gives no exit figure, so this model
  // assumes the M4's 10. Neither is measured yet (shared/reference/cortex-m-timing.md has
  // no exception figures): both are assumptions, docs/TIMING.md.
  uint32_t exception_entry_cycles() const override { return 12; }
  uint32_t exception_return_cycles() const override { return 10; }
  // Measured: "an instruction predicated out inside an IT block behaves as a NOP: it
  // allocates no stages and causes no hazard".
  bool skipped_behaves_as_nop() const override { return true; }
  bool has_compact_state() const override { return fetch_.has_compact_state(); }
  uint64_t state_key(uint32_t address) const override;
  State state() const override;
  void set_state(const State& state) override;

 private:
  uint32_t base_cycles(const Instruction& insn, bool taken) const;

  FetchModel fetch_;
  uint32_t operands_[2] = {0, 0};
  // State left by the previous instruction.
  uint32_t expected_next_ = UINT32_MAX;
  RegMask late_result_ = 0;      // registers whose value is ready one cycle late
  bool late_from_load_ = false;  // ... from a load (else from the accumulate stage: a MAC,
                                 // multiply, extend-and-add or operand-2 shift)
  bool flags_late_ = false;      // flags from a shifted-register operand-2 instruction
  bool previous_leads_ = false;  // a 16-bit instruction that a next 16-bit one may pair with
  bool previous_nop_ = false;             // ... and it is a NOP
  bool previous_alu_or_memory_ = false;   // ... and it is arithmetic or a single load/store
  bool previous_sets_flags_ = false;
  uint32_t fpu_busy_cycles_ = 0;       // cycles before another FP instruction may issue
};

}  // namespace fathom::sim::timing
