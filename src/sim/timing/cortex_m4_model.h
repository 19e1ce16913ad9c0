#pragma once
// Cortex-M4 (ARMv7E-M, with FPU): the TRM "Processor instruction timings" table (ARM DDI 0439,
// section 3.3.1) and the FPU table (section 7.2.3) with the load/store pipelining rules of TRM
// section 3.3.2 and the DWT measurements collected in shared/reference/cortex-m-timing.md.
// docs/TIMING.md lists every rule and what the model ignores.
#include <memory>

#include "sim/timing/core_timing_model.h"
#include "sim/timing/fetch_model.h"

namespace fathom::sim::timing {

class CortexM4Model : public CoreTimingModel {
 public:
  std::unique_ptr<CoreTimingModel> clone() const override {
    return std::make_unique<CortexM4Model>(*this);
  }
  explicit CortexM4Model(const model::Board& board)
      : refinements_(board.timing_refinements), fetch_(board) {}

  std::string name() const override;
  void set_operand_values(uint32_t first, uint32_t second) override {
    operands_[0] = first;
    operands_[1] = second;
  }
  uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) override;
  // Cortex-M4 TRM (ARM DDI 0439B) 5.5.1 / Cortex-M3 TRM (DDI 0337) 5.5.1, "Exception
  // handling": 12 cycles entry latency and 10 cycles exit, with zero-wait-state memory (tail
  // chaining 6: not modelled, fathom delivers no pending exception to chain to).
  uint32_t exception_entry_cycles() const override { return 12; }
  uint32_t exception_return_cycles() const override { return 10; }
  bool has_compact_state() const override { return fetch_.has_compact_state(); }
  uint64_t state_key(uint32_t address) const override;
  State state() const override;
  void set_state(const State& state) override;

 protected:
  // Core name and model version for name(), e.g. "cortex-m4/2".
  virtual const char* core_version() const { return "cortex-m4/2"; }
  // MUL/MLA/MLS, DSP and long multiplies: 1 cycle on the M4 (TRM 3.3.1), including UMAAL.
  virtual uint32_t multiply_cycles(const Instruction& insn) const {
    (void)insn;
    return 1;
  }
  // Measured (M3/M4 refinements): whether a pre/post-indexed load right after a single load
  // loses the pipelining. M4: "pre/post-indexed loads cannot be chained back to back on the
  // same base register (alternating two bases works)".
  virtual bool indexed_load_breaks_chain(const Instruction& insn, bool previous_indexed,
                                         uint8_t previous_base) const {
    return insn.writeback && previous_indexed && insn.mem_base == previous_base;
  }
  // Values set by set_operand_values for the current instruction (zero otherwise).
  uint32_t operands_[2] = {0, 0};
  // The board's `timing_refinements`: the fetch-related measured effects (docs/TIMING.md).
  bool refinements_ = false;

 private:
  FetchModel fetch_;
  // State left by the previous instruction.
  uint32_t expected_next_ = UINT32_MAX;  // where straight-line execution would go next
  bool previous_load_ = false;           // a single load that a load/store may pipeline with
  RegMask previous_load_data_ = 0;       // registers it loaded
  bool previous_store_ = false;          // a single store (store-then-load penalty)
  RegMask previous_result_ = 0;          // registers written by preceding data processing
  bool previous_16bit_ = false;          // IT folds onto a preceding 16-bit instruction
  bool previous_absorbs_nop_ = false;    // a single load or register-offset store
  bool previous_load_indexed_ = false;   // the single load was pre/post-indexed ...
  uint8_t previous_load_base_ = 0;       // ... on this base register
  uint8_t unaligned_run_ = 0;            // consecutive unaligned 32-bit instructions (max 3)
};

}  // namespace fathom::sim::timing
