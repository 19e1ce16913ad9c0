#pragma once
// Cycle rules shared by several Cortex-M models, each with its source. The facts come from
// shared/reference/cortex-m-timing.md (Arm TRMs and published DWT measurements); where the
// sources give only a range, the formula here is this model's documented assumption
// (docs/TIMING.md).
#include <bit>
#include <cstdint>

#include "sim/instruction.h"

namespace fathom::sim::timing {

// Pipeline refill P after a taken branch (M3/M4 TRM "Processor instruction timings": P is 1 to
// 3 "depending on the alignment and width of the target instruction, and whether the processor
// manages to speculate the address early"). This model's reading:
//  - kImmediate (B, BL, B<cond>, CBZ): the target is computed at decode and fetched early: 1.
//  - kRegister (BX, BLX Rm, MOV PC): the target comes from the execute stage: 2.
//  - kLoaded (LDR PC, POP/LDM {pc}, TBB/TBH): the target arrives from memory: 3 (the reference
//    gives LDR PC as "2 for the load + 3 refill" and TBB as "2 load + 1 add + 3 refill").
// A 32-bit target at an address that is not word-aligned costs one more cycle (measured,
// M3/M4: "a branch to an unaligned 32-bit instruction takes one extra cycle"); the models
// charge that cycle to the target instruction (see unaligned_target_penalty).
constexpr uint32_t refill_cycles(BranchTarget target) {
  switch (target) {
    case BranchTarget::kImmediate: return 1;
    case BranchTarget::kRegister: return 2;
    case BranchTarget::kLoaded: return 3;
  }
  return 2;
}

// Extra cycle for the first instruction after a change of flow when it is a 32-bit instruction
// at a halfword (not word) address: the core needs two fetches to have all of it.
constexpr uint32_t unaligned_target_penalty(const Instruction& insn, uint32_t address) {
  return (insn.size_bytes == 4 && (address & 2u) != 0) ? 1 : 0;
}

// Number of significant bits of `value` as an unsigned (0 for 0) or as a two's-complement
// magnitude (|value|, with INT32_MIN counting 32 bits).
constexpr uint32_t significant_bits(uint32_t value, bool is_signed) {
  if (is_signed && (value & 0x80000000u)) value = ~value + 1u;
  return 32u - static_cast<uint32_t>(std::countl_zero(value));
}

// UDIV/SDIV cycles from the operands (M4 TRM: "2 to 12 cycles, data-dependent"; the M3 TRM
// gives the same range and the divider terminates early when the quotient is short).
// Assumption: a 1-cycle setup, then the divider retires 3 quotient bits per cycle, where the
// quotient has q = bits(dividend) - bits(divisor) + 1 significant bits (on magnitudes for
// SDIV): cycles = 1 + ceil(q / 3), at least 2. A divisor of zero, or a dividend smaller than
// the divisor, gives 2. This spans exactly 2 (q <= 3) to 12 (q = 32: 0xFFFFFFFF / 1).
constexpr uint32_t divide_cycles(uint32_t dividend, uint32_t divisor, bool is_signed) {
  const uint32_t n = significant_bits(dividend, is_signed);
  const uint32_t d = significant_bits(divisor, is_signed);
  if (d == 0 || n < d) return 2;
  const uint32_t q = n - d + 1;
  const uint32_t cycles = 1 + (q + 2) / 3;
  return cycles < 2 ? 2 : cycles;
}

// Cortex-M3 long multiplies (M3 TRM r2p1 "Processor instruction timings": UMULL/SMULL 3 to 5,
// UMLAL/SMLAL 4 to 7, "early termination depending on the size of the source values").
// Assumption: the multiplier consumes the second source operand (Rm) 8 bits per cycle and
// stops after its highest significant byte: with s = significant bits of Rm (magnitude for the
// signed forms), UMULL/SMULL take 3 + [s > 16] + [s > 24] and UMLAL/SMLAL take
// 4 + [s > 8] + [s > 16] + [s > 24].
constexpr uint32_t m3_long_multiply_cycles(uint32_t rm, bool is_signed, bool accumulates) {
  const uint32_t s = significant_bits(rm, is_signed);
  if (accumulates) return 4 + (s > 8) + (s > 16) + (s > 24);
  return 3 + (s > 16) + (s > 24);
}

// True for instructions that access memory through an address register.
constexpr bool is_memory_access(InstrClass cls) {
  switch (cls) {
    case InstrClass::kLoad: case InstrClass::kStore: case InstrClass::kLoadDouble:
    case InstrClass::kStoreDouble: case InstrClass::kLoadMultiple:
    case InstrClass::kStoreMultiple: case InstrClass::kFpuLoad: case InstrClass::kFpuStore:
    case InstrClass::kFpuMultiple: case InstrClass::kTableBranch:
      return true;
    default:
      return false;
  }
}

// True for data processing whose result comes out of the ALU or multiplier (the producers in
// the M3/M4 TRM rule "a load or store whose address depends on the preceding data processing
// instruction stalls one cycle").
constexpr bool is_data_processing(InstrClass cls) {
  return cls == InstrClass::kAlu || cls == InstrClass::kMultiply ||
         cls == InstrClass::kLongMultiply || cls == InstrClass::kDivide;
}

// True for FPU instructions (they share the FPU's issue slot on the M33).
constexpr bool is_fpu(InstrClass cls) {
  switch (cls) {
    case InstrClass::kFpuAlu: case InstrClass::kFpuMac: case InstrClass::kFpuDivSqrt:
    case InstrClass::kFpuLoad: case InstrClass::kFpuStore: case InstrClass::kFpuMultiple:
    case InstrClass::kFpuTransfer:
      return true;
    default:
      return false;
  }
}

// Registers a single load writes with its data (not a written-back base).
constexpr RegMask load_data_regs(const Instruction& insn) {
  const RegMask data = insn.regs_written & static_cast<RegMask>(~insn.address_regs);
  return data ? data : insn.regs_written;
}

}  // namespace fathom::sim::timing
