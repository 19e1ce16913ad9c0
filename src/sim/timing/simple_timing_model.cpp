#include "sim/timing/simple_timing_model.h"

namespace fathom::sim::timing {

// Costs from the Cortex-M4 TRM (ARM DDI 0439B), section 3.3.1 "Cortex-M4 instruction timings",
// and its FPU companion table (section 7.2.3); see shared/reference/cortex-m-timing.md.
uint32_t SimpleTimingModel::cycles(const Instruction& insn, uint32_t address,
                                   uint32_t next_address) {
  const bool taken = next_address != address + insn.size_bytes;
  const bool after_load = previous_was_load_;
  previous_was_load_ = false;
  switch (insn.cls) {
    case InstrClass::kAlu:
    case InstrClass::kMultiply:
    case InstrClass::kLongMultiply:
    case InstrClass::kOther:
    case InstrClass::kBarrier:
      return 1;
    case InstrClass::kIt:
      return 0;  // folded into the next instruction in most cases (TRM 3.3.1)
    case InstrClass::kDivide:
      return divide_;
    case InstrClass::kLoad:
      // Neighbouring loads pipeline: the second costs one cycle less (TRM 3.3.2).
      previous_was_load_ = true;
      return after_load ? 1 : 2;
    case InstrClass::kStore:
      return insn.register_offset ? 2 : 1;
    case InstrClass::kLoadDouble:
    case InstrClass::kStoreDouble:
      return 3;  // not pipelined with neighbours
    case InstrClass::kLoadMultiple:
      return 1 + insn.reg_count + (insn.writes_pc ? refill_ : 0);
    case InstrClass::kStoreMultiple:
      return 1 + insn.reg_count;
    case InstrClass::kBranch:
      return taken ? 1 + refill_ : 1;
    case InstrClass::kTableBranch:
      return 3 + refill_;  // 2 for the load, 1 for the add, then the refill
    case InstrClass::kFpuAlu:
      return 1;
    case InstrClass::kFpuMac:
      return 3;
    case InstrClass::kFpuDivSqrt:
      return 14;
    case InstrClass::kFpuLoad:
    case InstrClass::kFpuTransfer:
      return 2;
    case InstrClass::kFpuStore:
      return 2;
    case InstrClass::kFpuMultiple:
      return 1 + insn.reg_count;
  }
  return 1;
}

util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board) {
  if (board.core == "cortex-m33" || board.core == "cortex-m4" || board.core == "cortex-m3")
    return std::make_unique<SimpleTimingModel>(board.core, 2, 7);
  return util::fail("no timing model for core '" + board.core + "' (board " + board.name +
                    "); known cores: cortex-m3, cortex-m4, cortex-m33");
}

}  // namespace fathom::sim::timing
