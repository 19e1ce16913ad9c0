#pragma once
// Something that watches execution from outside the firmware (the profiler's call tracker):
// the machine reports every instruction it charges to the timing model, in execution order,
// with its cost. Observing never changes the counts (tests/unit/profile check it).
#include <cstdint>

#include "sim/instruction.h"

namespace fathom::sim {

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // The instruction at `pc` took `cycles` and execution continued at `next`. `executed` is
  // false for an instruction that failed its IT condition. `sp` is the stack pointer at the
  // start of the instruction's translation block (exact at calls, which end blocks).
  virtual void on_instruction(const Instruction& insn, uint32_t pc, uint32_t next,
                              uint32_t cycles, bool executed, uint32_t sp) = 0;
};

}  // namespace fathom::sim
