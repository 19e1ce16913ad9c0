#pragma once
// What an instruction that fails its IT condition is charged as. It does not execute but still
// passes through the pipeline. A data-processing instruction costs the same either way (one
// cycle, and its register dependencies are interlocked at decode, before the condition is
// known); a conditional branch's cost already follows from where execution went; anything else
// (a load, store, multiply, FPU operation) takes one cycle, like a NOP of its size. On a model
// whose skipped instructions behave as NOPs whatever their class (the M33: no stages, no
// hazard), every skipped instruction is charged as that NOP. Shared by the Unicorn machine
// (sim/machine.cpp) and the QEMU engine's timing (sim/tcg_timing.cpp), which must charge alike.
#include "sim/instruction.h"
#include "sim/timing/core_timing_model.h"

namespace fathom::sim::timing {

// Whether failing its IT condition changes what `insn` costs on a model whose skipped
// instructions do not all behave as NOPs.
inline bool skip_changes_cost(const Instruction& insn) {
  switch (insn.cls) {
    case InstrClass::kAlu:
    case InstrClass::kOther:
    case InstrClass::kIt:
    case InstrClass::kBranch:
    case InstrClass::kTableBranch:
      return false;
    case InstrClass::kLoadMultiple:
      return !insn.writes_pc;
    default:
      return true;
  }
}

// The instruction the model is charged for `insn` (itself when it executed).
inline const Instruction& charged_instruction(const Instruction& insn, bool executed,
                                              const CoreTimingModel& model) {
  static const Instruction kSkipped16 = [] {
    Instruction n;
    n.size_bytes = 2;
    n.valid = true;
    return n;
  }();
  static const Instruction kSkipped32 = [] {
    Instruction n;
    n.size_bytes = 4;
    n.valid = true;
    return n;
  }();
  if (executed || (!skip_changes_cost(insn) && !model.skipped_behaves_as_nop())) return insn;
  return insn.size_bytes == 4 ? kSkipped32 : kSkipped16;
}

}  // namespace fathom::sim::timing
