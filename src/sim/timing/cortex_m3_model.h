#pragma once
// Cortex-M3 (ARMv7-M): the Cortex-M4 table and pipelining rules (the M3 TRM r2p1 "Processor
// instruction timings" shares them) with the M3's slower multiplier. No FPU or DSP: the CPU
// model faults on those instructions before they are timed.
#include "sim/timing/cortex_m4_model.h"

namespace fathom::sim::timing {

class CortexM3Model final : public CortexM4Model {
 public:
  std::unique_ptr<CoreTimingModel> clone() const override {
    return std::make_unique<CortexM3Model>(*this);
  }
  explicit CortexM3Model(const model::Board& board) : CortexM4Model(board) {}
  // TRM 3.3.1: UMULL/SMULL/UMLAL/SMLAL terminate early depending on the operands.
  bool uses_operand_values(const Instruction& insn) const override {
    return insn.needs_operand_values;
  }
  // Long multiplies read the operand values (multiply_cycles), as divides do.
  bool cost_reads_operands(const Instruction& insn) const override {
    return insn.cls == InstrClass::kDivide || insn.cls == InstrClass::kLongMultiply;
  }

 protected:
  const char* core_version() const override { return "cortex-m3/2"; }
  uint32_t multiply_cycles(const Instruction& insn) const override;
  // Measured (M3): "pre/post-indexed loads cannot be chained at all; only the first load of a
  // chain may be pre/post-indexed".
  bool indexed_load_breaks_chain(const Instruction& insn, bool previous_indexed,
                                 uint8_t previous_base) const override {
    (void)previous_indexed;
    (void)previous_base;
    return insn.writeback;
  }
};

}  // namespace fathom::sim::timing
