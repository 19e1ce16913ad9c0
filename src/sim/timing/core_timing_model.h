#pragma once
// The interface every per-core cycle model implements. The simulator calls `cycles` once per
// executed instruction, in execution order, after it knows where execution went next, so
// branch costs come from what actually happened.
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

  // Short identifier recorded in provenance, e.g. "simple-m33/1".
  virtual std::string name() const = 0;

  // Cycles taken by `insn` at `address`, given that the next instruction executed is at
  // `next_address`. Called in execution order; a model may keep state between calls
  // (pipelining of neighbouring loads, for example).
  virtual uint32_t cycles(const Instruction& insn, uint32_t address, uint32_t next_address) = 0;
};

// The model for `board`'s core; an error for a core without a model.
util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board);

}  // namespace fathom::sim::timing
