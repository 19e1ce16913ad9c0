#include "sim/timing/cortex_m0plus_model.h"

namespace fathom::sim::timing {

std::string CortexM0PlusModel::name() const {
  return std::string("cortex-m0plus/1 ") + fetch_.describe() +
         (small_multiplier_ ? " multiplier=small" : " multiplier=fast");
}

// Cycle counts from the Cortex-M0+ TRM section 3.3 (shared/reference/cortex-m-timing.md).
uint32_t CortexM0PlusModel::cycles(const Instruction& insn, uint32_t address,
                                   uint32_t next_address) {
  const bool sequential = address == expected_next_;
  const bool taken = next_address != address + insn.size_bytes;
  expected_next_ = address + insn.size_bytes;
  uint32_t c = fetch_.fetch_cycles(address, insn.size_bytes, sequential);
  if (insn.literal_load) c += fetch_.literal_cycles(address);
  switch (insn.cls) {
    case InstrClass::kMultiply:
      return c + (small_multiplier_ ? 32 : 1);  // MULS
    case InstrClass::kLoad:
    case InstrClass::kStore:
      return c + 2;  // all single LDR/STR forms
    case InstrClass::kLoadMultiple:
      // LDM/POP 1 + N; POP with PC 3 + N.
      return c + 1 + insn.reg_count + (insn.writes_pc ? 2 : 0);
    case InstrClass::kStoreMultiple:
      return c + 1 + insn.reg_count;  // STM/PUSH 1 + N
    case InstrClass::kBranch:
      if (!taken) return c + 1;  // B<cond> not taken
      if (insn.size_bytes == 4) return c + 3;  // BL
      return c + 2;  // B, B<cond> taken, BX, BLX, MOV/ADD PC
    case InstrClass::kBarrier:
      return c + 3;  // DMB, DSB, ISB
    default:
      // Data processing and everything else (the CPU faults on instructions ARMv6-M lacks).
      return c + 1;
  }
}

}  // namespace fathom::sim::timing
