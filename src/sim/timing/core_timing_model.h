#pragma once
// The interface every per-core cycle model implements. The simulator calls `cycles` once per
// executed instruction, in execution order, after it knows where execution went next, so
// branch costs come from what actually happened. docs/TIMING.md describes the models.
#include <cstdint>
#include <memory>
#include <string>

#include "model/board.h"
#include "sim/instruction.h"
#include "util/error.h"

namespace fathom::sim::timing {

class CoreTimingModel {
 public:
  virtual ~CoreTimingModel() = default;

  // Identifier recorded in provenance: the core, the model's version and the memory system,
  // e.g. "cortex-m4/1 ws=0 prefetch=on icache=off".
  virtual std::string name() const = 0;

  // Whether this model's cost of `insn` depends on its operand values (then the machine must
  // read them: a divide everywhere, a long multiply on the Cortex-M3).
  virtual bool uses_operand_values(const Instruction& insn) const {
    return insn.needs_operand_values && insn.cls == InstrClass::kDivide;
  }

  // The values of `insn.operand_regs` just before the next instruction executes. The machine
  // calls this only for instructions with `needs_operand_values` (UDIV/SDIV, long multiplies),
  // before the matching `cycles` call; without it those operands count as zero.
  virtual void set_operand_values(uint32_t first, uint32_t second) {
    (void)first;
    (void)second;
  }

  // Cycles taken by `insn` at `address`, given that the next instruction executed is at
  // `next_address`. Called in execution order; a model keeps state between calls (pipelining
  // of neighbouring loads, result latencies, the fetch buffer). A penalty that silicon pays
  // for fetching a branch target is charged to the target instruction.
  virtual uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) = 0;
};

// The model for `board`'s core and memory system (src/sim/timing/timing_model_factory.cpp);
// an error for a core without a model.
util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board);

}  // namespace fathom::sim::timing
