#pragma once
// What the timing model needs to know about one Thumb instruction, decoded once per address.
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
  kLoadMultiple,   // LDM/POP (reg_count registers)
  kStoreMultiple,  // STM/PUSH
  kBranch,         // B/BL/BX/BLX/CBZ/CBNZ and any other write to PC
  kTableBranch,    // TBB/TBH
  kIt,             // IT
  kFpuAlu,         // VADD/VSUB/VMUL/VABS/VNEG/VCMP/VCVT/VMOV imm
  kFpuMac,         // VMLA/VMLS/VFMA/VFMS/VNMLA...
  kFpuDivSqrt,     // VDIV/VSQRT
  kFpuLoad,        // VLDR
  kFpuStore,       // VSTR
  kFpuMultiple,    // VLDM/VSTM/VPUSH/VPOP (reg_count registers, doubles counted twice)
  kFpuTransfer,    // VMOV core<->FP, VMRS/VMSR
  kBarrier,        // DMB/DSB/ISB
  kOther,          // NOP, hints, system instructions
};

struct Instruction {
  InstrClass cls = InstrClass::kOther;
  uint8_t size_bytes = 0;       // 2 or 4; 0 = not decoded yet
  uint8_t reg_count = 0;        // registers transferred by LDM/STM/PUSH/POP/VLDM/VSTM
  bool writes_pc = false;       // LDM/POP/LDR with PC in the destination
  bool register_offset = false; // load/store with a register offset
  bool valid = false;           // Capstone decoded it
};

}  // namespace fathom::sim
