#pragma once
// What the timing model needs to know about one Thumb instruction, decoded once per address
// (src/sim/instruction_decoder.cpp), so that charging an executed instruction needs no lookup.
#include <cstdint>

namespace fathom::sim {

enum class InstrClass : uint8_t {
  kAlu,            // data processing, moves, compares, shifts, bitfield, extend, SIMD add
  kMultiply,       // MUL/MLA/MLS and the 32x32->32 DSP multiplies
  kLongMultiply,   // UMULL/SMULL/UMLAL/SMLAL/UMAAL and 64-bit DSP accumulates
  kDivide,         // UDIV/SDIV
  kLoad,           // single LDR/LDRB/LDRH/LDRSB/LDRSH/LDREX (not to PC)
  kStore,          // single STR/STRB/STRH/STREX
  kLoadDouble,     // LDRD
  kStoreDouble,    // STRD
  kLoadMultiple,   // LDM/POP (reg_count registers); also LDR PC (reg_count 1, writes_pc)
  kStoreMultiple,  // STM/PUSH
  kBranch,         // B/BL/BX/BLX/CBZ/CBNZ and any other write to PC
  kTableBranch,    // TBB/TBH
  kIt,             // IT
  kFpuAlu,         // VADD/VSUB/VMUL/VABS/VNEG/VCMP/VCVT, VMOV between FP registers or immediate
  kFpuMac,         // VMLA/VMLS/VFMA/VFMS/VNMLA...
  kFpuDivSqrt,     // VDIV/VSQRT
  kFpuLoad,        // VLDR (double_precision for a D register)
  kFpuStore,       // VSTR (double_precision for a D register)
  kFpuMultiple,    // VLDM/VSTM/VPUSH/VPOP (reg_count registers, doubles counted twice)
  kFpuTransfer,    // VMOV core<->FP, VMRS/VMSR
  kBarrier,        // DMB/DSB/ISB
  kOther,          // NOP, hints, system instructions
};

// How a taken branch gets its target, which decides how early the core can fetch it.
enum class BranchTarget : uint8_t {
  kImmediate,  // B, BL, B<cond>, CBZ/CBNZ: target known at decode
  kRegister,   // BX, BLX Rm, MOV/ADD PC: target from a register
  kLoaded,     // POP/LDM/LDR PC, TBB/TBH: target (or offset) loaded from memory
};

// Core registers r0..r15 as a bit mask: bit n = Rn (13 = SP, 14 = LR, 15 = PC).
using RegMask = uint16_t;

struct Instruction {
  InstrClass cls = InstrClass::kOther;
  uint8_t size_bytes = 0;       // 2 or 4; 0 = not decoded yet
  uint8_t reg_count = 0;        // registers transferred by LDM/STM/PUSH/POP/VLDM/VSTM
  bool writes_pc = false;       // LDM/POP/LDR with PC in the destination
  bool register_offset = false; // load/store with a register offset
  bool writeback = false;       // single load/store, pre/post-indexed (writes the base back)
  bool valid = false;           // Capstone decoded it

  // --- Facts for the pipeline rules (src/sim/timing). ---
  RegMask regs_read = 0;         // core registers read (explicit and implicit, e.g. SP of PUSH)
  RegMask regs_written = 0;      // core registers written
  RegMask address_regs = 0;      // registers that form a load/store address (base, index)
  RegMask accumulator_regs = 0;  // MAC accumulators (MLA Ra; UMLAL/SMLAL/UMAAL RdLo, RdHi);
                                 // the added register Rn of an extend-and-add
  bool sets_flags = false;       // writes APSR.NZCV (ADDS, CMP, MULS...)
  bool reads_flags = false;      // conditional execution or ADC/SBC/RRX
  bool shifted_operand = false;  // operand 2 is a register shifted by a non-zero amount (not
                                 // the rotation of a plain extend such as UXTB.W Rd, Rm, ROR #8)
  bool shifted_constant = false; // operand 2 is a Thumb-2 modified immediate that needs the
                                 // shifter: a rotated 8-bit value (imm12<11:10> != 00), not a
                                 // plain 8/12-bit constant or a replicated-byte pattern
  bool extend_add = false;       // UXTAB/UXTAH/SXTAB/SXTAH/UXTAB16/SXTAB16 (accumulator_regs = Rn)
  bool move = false;             // MOV/MOVS (register or immediate, any width)
  bool nop = false;              // NOP
  bool accumulates = false;      // MLA/MLS/UMLAL/SMLAL/UMAAL and the DSP accumulates
  bool signed_operands = false;  // SDIV/SMULL/SMLAL: operand values are two's complement
  bool literal_load = false;     // PC-relative load (literal pool)
  bool double_precision = false; // VLDR/VSTR of a D register
  BranchTarget branch_target = BranchTarget::kImmediate;  // meaningful when writes_pc
  // Core register numbers (0..14) of the two source operands whose values decide the cost of
  // a data-dependent instruction (UDIV/SDIV Rn, Rm; UMULL/SMULL/UMLAL/SMLAL Rn, Rm); the
  // machine reads them before such an instruction executes when `needs_operand_values`.
  bool needs_operand_values = false;
  uint8_t operand_regs[2] = {0, 0};

  // --- Where a load or store accesses memory, to tell which instruction of a translation
  // block made a device access (sim::Machine, kBlock). kNoRegister when absent. ---
  static constexpr uint8_t kNoRegister = 0xFF;
  uint8_t mem_base = kNoRegister;   // base register (13 = SP for PUSH/POP)
  uint8_t mem_index = kNoRegister;  // index register
  uint8_t mem_shift = 0;            // index shifted left by this
  bool mem_index_subtract = false;  // [Rn, -Rm]
  bool mem_descending = false;      // STMDB/LDMDB/PUSH/VPUSH: the span ends at the base
  int32_t mem_disp = 0;             // immediate offset (0 when post-indexed)
  uint16_t mem_span_bytes = 0;      // bytes from the first to past the last accessed byte

  uint8_t it_firstcond_mask = 0;    // IT: the encoding's low byte (sim/it_block.h)
  // CMP Rn, Rm (no shift) or CMP Rn, #imm: its operands (sim/it_result.h decode_compare, filled
  // in by sim::Machine), compare_rm kNoRegister for a constant; compare_rn kNoRegister when the
  // instruction is no such CMP.
  uint8_t compare_rn = kNoRegister;
  uint8_t compare_rm = kNoRegister;
  uint32_t compare_imm = 0;

  // --- What a load or store moves, for taint tracking (profile/taint_tracker.h). ---
  uint8_t access_bytes = 0;  // a single load/store's access (1, 2, 4 or 8 for LDRD/STRD/VLDR.64)
  RegMask data_regs = 0;     // core registers loaded from or stored to memory (LDM/STM: the list;
                             // not the base, nor STREX's status register)
  // LDRD/STRD Rt, Rt2: Rt's word is at the address, Rt2's at the address + 4 (Rt2 need not be
  // Rt + 1 in Thumb-2, so the mask cannot say which is which). kNoRegister otherwise.
  uint8_t pair_regs[2] = {kNoRegister, kNoRegister};
};

}  // namespace fathom::sim
