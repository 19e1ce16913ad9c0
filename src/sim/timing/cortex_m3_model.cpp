#include "sim/timing/cortex_m3_model.h"

#include "sim/timing/timing_rules.h"

namespace fathom::sim::timing {

// M3 TRM r2p1 "Processor instruction timings": MUL 1, MLA/MLS 2; UMULL/SMULL 3-5 and
// UMLAL/SMLAL 4-7 with early termination on the operand values (m3_long_multiply_cycles).
uint32_t CortexM3Model::multiply_cycles(const Instruction& insn) const {
  if (insn.cls == InstrClass::kLongMultiply)
    return m3_long_multiply_cycles(operands_[1], insn.signed_operands, insn.accumulates);
  return insn.accumulates ? 2 : 1;
}

}  // namespace fathom::sim::timing
