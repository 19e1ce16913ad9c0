#pragma once
// The interface every per-core cycle model implements. The simulator calls `cycles` once per
// executed instruction, in execution order, after it knows where execution went next, so
// branch costs come from what actually happened — or, for a run of instructions it charged
// before from an equal state, restores the state they left (state snapshots, below).
// docs/TIMING.md describes the models.
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
  // e.g. "cortex-m4/2 ws=0 prefetch=on icache=off refinements=off".
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

  // --- State snapshots, for memoizing costs. The machine charges a translation block that ran
  // before from an equal state with the cycles it took then and the state it left
  // (sim::Machine, kBlock); the per-instruction reference proves it exact. ---

  // Everything the model carries from one `cycles` call to the next (the values of
  // set_operand_values excepted), packed by the model.
  struct State {
    uint64_t words[2] = {0, 0};
    bool operator==(const State&) const = default;
  };

  // Whether `state_key`, `state` and `set_state` work for this model. False (the default) when
  // the state does not fit a State, e.g. with an instruction cache: the machine then charges
  // every instruction.
  virtual bool has_compact_state() const { return false; }

  // The carried state as it bears on instructions executed from `address` on, packed below
  // 2^63. Contract: whenever two calls at the same `address` give equal keys, the same sequence
  // of `cycles` calls starting at `address` (none on an instruction that `cost_reads_operands`)
  // returns the same cycles, and leaves states that behave the same from then on. What cannot
  // matter at `address` is folded away (where the previous instruction ended counts only as
  // "is it `address`"), so that entries from different predecessors share a key.
  virtual uint64_t state_key(uint32_t address) const {
    (void)address;
    return 0;
  }
  // The full carried state, and restoring it (a value from `state` of the same model type).
  virtual State state() const { return {}; }
  virtual void set_state(const State& state) { (void)state; }

  // --- Exceptions (docs/TIMING.md "Exceptions"). The machine charges the instruction that
  // raises an exception (SVC) and the one that returns from it (BX LR, POP {..,PC} to an
  // EXC_RETURN value) through `cycles` as usual, and adds these latencies between them and the
  // next instruction. Both are the zero-wait-state figures; the handler's and the resumed
  // code's first fetch pay the flash wait states like any branch target. ---

  // Cycles to stack the 8-word frame, read the vector and reach the handler's first
  // instruction. The default is the Cortex-M3/M4 TRM figure; each model states its own.
  virtual uint32_t exception_entry_cycles() const { return 12; }
  // Cycles to unstack the frame and reach the interrupted code's next instruction (default:
  // the Cortex-M3/M4 TRM figure).
  virtual uint32_t exception_return_cycles() const { return 10; }

  // A copy of this model with all of its state (instruction cache included): the machine keeps
  // one in an isolation snapshot (sim::Machine, docs/SIMULATOR.md "Isolation").
  virtual std::unique_ptr<CoreTimingModel> clone() const = 0;

  // Whether an instruction that fails its IT condition is to be charged as a NOP of its size
  // whatever its class (no stages, no hazard: the M33 measurements), rather than as itself
  // for data processing, branches and IT (docs/TIMING.md "IT blocks"; the machine decides
  // which Instruction it passes to `cycles`).
  virtual bool skipped_behaves_as_nop() const { return false; }

  // Whether `insn`'s cost reads the values last given to set_operand_values (then it is not a
  // function of the state: the machine never memoizes it). Divides on every model.
  virtual bool cost_reads_operands(const Instruction& insn) const {
    return insn.cls == InstrClass::kDivide;
  }
};

// The model for `board`'s core and memory system (src/sim/timing/timing_model_factory.cpp);
// an error for a core without a model.
util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board);

}  // namespace fathom::sim::timing
