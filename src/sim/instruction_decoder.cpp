#include "sim/instruction_decoder.h"

#include <stdexcept>

namespace fathom::sim {
namespace {

InstrClass classify(unsigned id) {
  switch (id) {
    case ARM_INS_MUL: case ARM_INS_MLA: case ARM_INS_MLS:
    case ARM_INS_SMULBB: case ARM_INS_SMULBT: case ARM_INS_SMULTB: case ARM_INS_SMULTT:
    case ARM_INS_SMULWB: case ARM_INS_SMULWT: case ARM_INS_SMLABB: case ARM_INS_SMLABT:
    case ARM_INS_SMLATB: case ARM_INS_SMLATT: case ARM_INS_SMLAWB: case ARM_INS_SMLAWT:
    case ARM_INS_SMMUL: case ARM_INS_SMMULR: case ARM_INS_SMMLA: case ARM_INS_SMMLAR:
    case ARM_INS_SMMLS: case ARM_INS_SMMLSR: case ARM_INS_SMUAD: case ARM_INS_SMUADX:
    case ARM_INS_SMUSD: case ARM_INS_SMUSDX: case ARM_INS_SMLAD: case ARM_INS_SMLADX:
    case ARM_INS_SMLSD: case ARM_INS_SMLSDX: case ARM_INS_USAD8: case ARM_INS_USADA8:
      return InstrClass::kMultiply;
    case ARM_INS_UMULL: case ARM_INS_SMULL: case ARM_INS_UMLAL: case ARM_INS_SMLAL:
    case ARM_INS_UMAAL: case ARM_INS_SMLALBB: case ARM_INS_SMLALBT: case ARM_INS_SMLALTB:
    case ARM_INS_SMLALTT: case ARM_INS_SMLALD: case ARM_INS_SMLALDX: case ARM_INS_SMLSLD:
    case ARM_INS_SMLSLDX:
      return InstrClass::kLongMultiply;
    case ARM_INS_UDIV: case ARM_INS_SDIV:
      return InstrClass::kDivide;
    case ARM_INS_LDR: case ARM_INS_LDRB: case ARM_INS_LDRH: case ARM_INS_LDRSB:
    case ARM_INS_LDRSH: case ARM_INS_LDREX: case ARM_INS_LDREXB: case ARM_INS_LDREXH:
    case ARM_INS_LDRT: case ARM_INS_LDRBT: case ARM_INS_LDRHT: case ARM_INS_LDRSBT:
    case ARM_INS_LDRSHT: case ARM_INS_LDA: case ARM_INS_LDAB: case ARM_INS_LDAH:
    case ARM_INS_LDAEX: case ARM_INS_LDAEXB: case ARM_INS_LDAEXH:
      return InstrClass::kLoad;
    case ARM_INS_STR: case ARM_INS_STRB: case ARM_INS_STRH: case ARM_INS_STREX:
    case ARM_INS_STREXB: case ARM_INS_STREXH: case ARM_INS_STRT: case ARM_INS_STRBT:
    case ARM_INS_STRHT: case ARM_INS_STL: case ARM_INS_STLB: case ARM_INS_STLH:
    case ARM_INS_STLEX: case ARM_INS_STLEXB: case ARM_INS_STLEXH:
      return InstrClass::kStore;
    case ARM_INS_LDRD: case ARM_INS_LDREXD:
      return InstrClass::kLoadDouble;
    case ARM_INS_STRD: case ARM_INS_STREXD:
      return InstrClass::kStoreDouble;
    case ARM_INS_LDM: case ARM_INS_LDMDB: case ARM_INS_POP:
      return InstrClass::kLoadMultiple;
    case ARM_INS_STM: case ARM_INS_STMDB: case ARM_INS_PUSH:
      return InstrClass::kStoreMultiple;
    case ARM_INS_B: case ARM_INS_BL: case ARM_INS_BX: case ARM_INS_BLX: case ARM_INS_CBZ:
    case ARM_INS_CBNZ:
      return InstrClass::kBranch;
    case ARM_INS_TBB: case ARM_INS_TBH:
      return InstrClass::kTableBranch;
    case ARM_INS_IT:
      return InstrClass::kIt;
    case ARM_INS_VADD: case ARM_INS_VSUB: case ARM_INS_VMUL: case ARM_INS_VNMUL:
    case ARM_INS_VABS: case ARM_INS_VNEG: case ARM_INS_VCMP: case ARM_INS_VCMPE:
    case ARM_INS_VCVT: case ARM_INS_VCVTA: case ARM_INS_VCVTN: case ARM_INS_VCVTP:
    case ARM_INS_VCVTM: case ARM_INS_VCVTR: case ARM_INS_VCVTB: case ARM_INS_VCVTT:
    case ARM_INS_VSELEQ: case ARM_INS_VSELGE: case ARM_INS_VSELGT: case ARM_INS_VSELVS: case ARM_INS_VMAXNM: case ARM_INS_VMINNM: case ARM_INS_VRINTA:
    case ARM_INS_VRINTN: case ARM_INS_VRINTP: case ARM_INS_VRINTM: case ARM_INS_VRINTR:
    case ARM_INS_VRINTX: case ARM_INS_VRINTZ:
      return InstrClass::kFpuAlu;
    case ARM_INS_VMLA: case ARM_INS_VMLS: case ARM_INS_VNMLA: case ARM_INS_VNMLS:
    case ARM_INS_VFMA: case ARM_INS_VFMS: case ARM_INS_VFNMA: case ARM_INS_VFNMS:
      return InstrClass::kFpuMac;
    case ARM_INS_VDIV: case ARM_INS_VSQRT:
      return InstrClass::kFpuDivSqrt;
    case ARM_INS_VLDR:
      return InstrClass::kFpuLoad;
    case ARM_INS_VSTR:
      return InstrClass::kFpuStore;
    case ARM_INS_VLDMIA: case ARM_INS_VLDMDB: case ARM_INS_VSTMIA: case ARM_INS_VSTMDB:
    case ARM_INS_VPUSH: case ARM_INS_VPOP:
      return InstrClass::kFpuMultiple;
    case ARM_INS_VMOV: case ARM_INS_VMRS: case ARM_INS_VMSR:
      return InstrClass::kFpuTransfer;
    case ARM_INS_DMB: case ARM_INS_DSB: case ARM_INS_ISB:
      return InstrClass::kBarrier;
    case ARM_INS_NOP: case ARM_INS_WFI: case ARM_INS_WFE: case ARM_INS_SEV: case ARM_INS_YIELD:
    case ARM_INS_BKPT: case ARM_INS_SVC: case ARM_INS_UDF: case ARM_INS_CPS: case ARM_INS_MRS:
    case ARM_INS_MSR:
      return InstrClass::kOther;
    default:
      return InstrClass::kAlu;
  }
}

// Core register number 0..15 of a Capstone register, or -1 for anything else.
int core_reg(unsigned reg) {
  if (reg >= ARM_REG_R0 && reg <= ARM_REG_R12) return static_cast<int>(reg - ARM_REG_R0);
  if (reg == ARM_REG_SP) return 13;
  if (reg == ARM_REG_LR) return 14;
  if (reg == ARM_REG_PC) return 15;
  return -1;
}

RegMask bit(unsigned reg) {
  const int n = core_reg(reg);
  return n < 0 ? RegMask{0} : static_cast<RegMask>(1u << n);
}

bool is_accumulating(unsigned id) {
  switch (id) {
    case ARM_INS_MLA: case ARM_INS_MLS: case ARM_INS_SMLABB: case ARM_INS_SMLABT:
    case ARM_INS_SMLATB: case ARM_INS_SMLATT: case ARM_INS_SMLAWB: case ARM_INS_SMLAWT:
    case ARM_INS_SMMLA: case ARM_INS_SMMLAR: case ARM_INS_SMMLS: case ARM_INS_SMMLSR:
    case ARM_INS_SMLAD: case ARM_INS_SMLADX: case ARM_INS_SMLSD: case ARM_INS_SMLSDX:
    case ARM_INS_USADA8: case ARM_INS_UMLAL: case ARM_INS_SMLAL: case ARM_INS_UMAAL:
    case ARM_INS_SMLALBB: case ARM_INS_SMLALBT: case ARM_INS_SMLALTB: case ARM_INS_SMLALTT:
    case ARM_INS_SMLALD: case ARM_INS_SMLALDX: case ARM_INS_SMLSLD: case ARM_INS_SMLSLDX:
      return true;
    default:
      return false;
  }
}

// Instructions whose own operation is a shift: a shift amount there is not an operand-2 shift.
bool is_shift_instruction(unsigned id) {
  switch (id) {
    case ARM_INS_LSL: case ARM_INS_LSR: case ARM_INS_ASR: case ARM_INS_ROR: case ARM_INS_RRX:
    case ARM_INS_MOV:
      return true;
    default:
      return false;
  }
}

// Plain extends: their ROR #n rotates the source as part of the extend, not an operand-2 shift.
bool is_plain_extend(unsigned id) {
  switch (id) {
    case ARM_INS_UXTB: case ARM_INS_UXTH: case ARM_INS_SXTB: case ARM_INS_SXTH:
    case ARM_INS_UXTB16: case ARM_INS_SXTB16:
      return true;
    default:
      return false;
  }
}

bool is_extend_add(unsigned id) {
  switch (id) {
    case ARM_INS_UXTAB: case ARM_INS_UXTAH: case ARM_INS_SXTAB: case ARM_INS_SXTAH:
    case ARM_INS_UXTAB16: case ARM_INS_SXTAB16:
      return true;
    default:
      return false;
  }
}

// Whether the 32-bit Thumb encoding hw0:hw1 is "data processing (modified immediate)"
// (ARMv7-M ARM A5.3.1: hw0 = 11110 i 0 op S Rn, hw1 = 0 imm3 Rd imm8) with a constant that
// needs the shifter. ThumbExpandImm (A5.3.2): imm12<11:10> = 00 gives the plain 8-bit value or a
// replicated-byte pattern (00XY00XY, XY00XY00, XYXYXYXY); otherwise the constant is 1bcdefgh
// rotated right by imm12<11:7>, a "shifted constant" (M33 measurements).
bool modified_immediate_is_shifted(uint16_t hw0, uint16_t hw1) {
  if ((hw0 & 0xFA00) != 0xF000 || (hw1 & 0x8000) != 0) return false;
  const uint32_t imm12 = ((hw0 >> 10) & 1u) << 11 | ((hw1 >> 12) & 7u) << 8 | (hw1 & 0xFFu);
  return (imm12 >> 10) != 0;
}

}  // namespace

InstructionDecoder::InstructionDecoder() {
  if (cs_open(CS_ARCH_ARM,
              static_cast<cs_mode>(CS_MODE_THUMB | CS_MODE_MCLASS | CS_MODE_V8),
              &handle_) != CS_ERR_OK)
    throw std::runtime_error("cannot initialise Capstone for Thumb");
  cs_option(handle_, CS_OPT_DETAIL, CS_OPT_ON);
  scratch_ = cs_malloc(handle_);
}

InstructionDecoder::~InstructionDecoder() {
  if (scratch_) cs_free(scratch_, 1);
  if (handle_) cs_close(&handle_);
}

void InstructionDecoder::add_memory_operand(const cs_insn& insn, Instruction& out) const {
  const cs_arm& arm = insn.detail->arm;
  auto number = [](unsigned reg) {
    const int n = core_reg(reg);
    return n < 0 ? Instruction::kNoRegister : static_cast<uint8_t>(n);
  };
  switch (insn.id) {
    case ARM_INS_PUSH: case ARM_INS_POP: case ARM_INS_VPUSH: case ARM_INS_VPOP:
    case ARM_INS_LDM: case ARM_INS_LDMDB: case ARM_INS_STM: case ARM_INS_STMDB:
    case ARM_INS_VLDMIA: case ARM_INS_VLDMDB: case ARM_INS_VSTMIA: case ARM_INS_VSTMDB: {
      const bool stack = insn.id == ARM_INS_PUSH || insn.id == ARM_INS_POP ||
                         insn.id == ARM_INS_VPUSH || insn.id == ARM_INS_VPOP;
      out.mem_base = stack ? 13 : (arm.op_count > 0 ? number(arm.operands[0].reg) : 0xFF);
      out.mem_descending = insn.id == ARM_INS_PUSH || insn.id == ARM_INS_VPUSH ||
                           insn.id == ARM_INS_LDMDB || insn.id == ARM_INS_STMDB ||
                           insn.id == ARM_INS_VLDMDB || insn.id == ARM_INS_VSTMDB;
      uint32_t bytes = 0;
      for (int i = stack ? 0 : 1; i < arm.op_count; ++i) {
        const unsigned r = arm.operands[i].reg;
        bytes += (r >= ARM_REG_D0 && r <= ARM_REG_D31) ? 8 : 4;
      }
      out.mem_span_bytes = static_cast<uint16_t>(bytes);
      return;
    }
    default:
      break;
  }
  for (int i = 0; i < arm.op_count; ++i) {
    const cs_arm_op& op = arm.operands[i];
    if (op.type != ARM_OP_MEM) continue;
    out.mem_base = number(op.mem.base);
    out.mem_index = op.mem.index == ARM_REG_INVALID ? Instruction::kNoRegister
                                                    : number(op.mem.index);
    out.mem_shift = static_cast<uint8_t>(
        op.mem.lshift ? op.mem.lshift : (op.shift.type == ARM_SFT_LSL ? op.shift.value : 0));
    out.mem_index_subtract = op.subtracted;
    out.mem_disp = op.mem.disp;
    out.mem_span_bytes = 8;  // at most a doubleword; any byte of it identifies the access
    return;
  }
}

void InstructionDecoder::add_pipeline_facts(const cs_insn& insn, Instruction& out) const {
  const cs_arm& arm = insn.detail->arm;
  const unsigned id = insn.id;

  // Registers and flags, explicit and implicit (SP of PUSH, CPSR of ADDS...).
  cs_regs read{}, written{};
  uint8_t read_count = 0, write_count = 0;
  if (cs_regs_access(handle_, &insn, read, &read_count, written, &write_count) == CS_ERR_OK) {
    for (uint8_t i = 0; i < read_count; ++i) {
      out.regs_read |= bit(read[i]);
      if (read[i] == ARM_REG_CPSR || read[i] == ARM_REG_APSR) out.reads_flags = true;
    }
    for (uint8_t i = 0; i < write_count; ++i) {
      out.regs_written |= bit(written[i]);
      if (written[i] == ARM_REG_CPSR || written[i] == ARM_REG_APSR) out.sets_flags = true;
    }
  }
  // Capstone 4.0.2 leaves some explicit sources out of cs_regs_access (UXTAB r4, r5, r0 reads
  // only r5 there): data processing reads every register operand after the destination.
  if (out.cls == InstrClass::kAlu)
    for (int i = 1; i < arm.op_count; ++i)
      if (arm.operands[i].type == ARM_OP_REG) out.regs_read |= bit(arm.operands[i].reg);
  if (arm.update_flags) out.sets_flags = true;
  if (arm.cc != ARM_CC_AL && arm.cc != ARM_CC_INVALID) out.reads_flags = true;

  // Load/store address registers.
  for (int i = 0; i < arm.op_count; ++i) {
    const cs_arm_op& op = arm.operands[i];
    if (op.type != ARM_OP_MEM) continue;
    out.address_regs |= bit(op.mem.base);
    if (op.mem.index != ARM_REG_INVALID) out.address_regs |= bit(op.mem.index);
    if (op.mem.base == ARM_REG_PC) out.literal_load = true;
  }
  add_memory_operand(insn, out);
  if (out.cls == InstrClass::kLoad || out.cls == InstrClass::kStore) out.writeback = arm.writeback;
  switch (id) {
    case ARM_INS_PUSH: case ARM_INS_POP:
      out.address_regs |= bit(ARM_REG_SP);
      break;
    case ARM_INS_VPUSH: case ARM_INS_VPOP:
      // Capstone 4.0.2 leaves their SP out of cs_regs_access; they read and write it.
      out.address_regs |= bit(ARM_REG_SP);
      out.regs_read |= bit(ARM_REG_SP);
      out.regs_written |= bit(ARM_REG_SP);
      break;
    case ARM_INS_LDM: case ARM_INS_LDMDB: case ARM_INS_STM: case ARM_INS_STMDB:
    case ARM_INS_VLDMIA: case ARM_INS_VLDMDB: case ARM_INS_VSTMIA: case ARM_INS_VSTMDB:
      if (arm.op_count > 0 && arm.operands[0].type == ARM_OP_REG) {
        out.address_regs |= bit(arm.operands[0].reg);
        // ... and the base a VLDM/VSTM writes back
        if (arm.writeback) out.regs_written |= bit(arm.operands[0].reg);
      }
      break;
    default:
      break;
  }
  if ((out.cls == InstrClass::kFpuLoad || out.cls == InstrClass::kFpuStore) && arm.op_count > 0)
    out.double_precision = arm.operands[0].reg >= ARM_REG_D0 && arm.operands[0].reg <= ARM_REG_D31;

  // Operand-2 shifts (M33: 2-cycle result latency).
  if (out.cls == InstrClass::kAlu && !is_shift_instruction(id) && !is_plain_extend(id) &&
      !is_extend_add(id))
    for (int i = 1; i < arm.op_count; ++i) {
      const cs_arm_op& op = arm.operands[i];
      if (op.type == ARM_OP_REG && op.shift.type != ARM_SFT_INVALID &&
          (op.shift.value != 0 || op.shift.type >= ARM_SFT_ASR_REG))
        out.shifted_operand = true;
    }

  out.move = id == ARM_INS_MOV;
  out.nop = id == ARM_INS_NOP;
  // Extend-and-add: Rd, Rn, Rm{, ROR #n}; Rn is the accumulate input (M33 measurements).
  if (is_extend_add(id)) {
    out.extend_add = true;
    if (arm.op_count >= 3) out.accumulator_regs = bit(arm.operands[1].reg);
  }

  // Multiply accumulators and data-dependent operands.
  out.accumulates = is_accumulating(id);
  if (out.accumulates && arm.op_count >= 3) {
    if (out.cls == InstrClass::kLongMultiply) {
      out.accumulator_regs =
          static_cast<RegMask>(bit(arm.operands[0].reg) | bit(arm.operands[1].reg));
    } else {
      out.accumulator_regs = bit(arm.operands[arm.op_count - 1].reg);
    }
  }
  auto set_operands = [&](int first) {
    if (arm.op_count < first + 2) return;
    const int a = core_reg(arm.operands[first].reg), b = core_reg(arm.operands[first + 1].reg);
    if (a < 0 || b < 0 || a > 14 || b > 14) return;
    out.needs_operand_values = true;
    out.operand_regs[0] = static_cast<uint8_t>(a);
    out.operand_regs[1] = static_cast<uint8_t>(b);
  };
  switch (id) {
    case ARM_INS_SDIV: out.signed_operands = true; [[fallthrough]];
    case ARM_INS_UDIV: set_operands(arm.op_count == 3 ? 1 : 0); break;
    case ARM_INS_SMULL: case ARM_INS_SMLAL: out.signed_operands = true; [[fallthrough]];
    case ARM_INS_UMULL: case ARM_INS_UMLAL: set_operands(2); break;
    default: break;
  }

  // How a write to PC finds its target.
  if (out.cls == InstrClass::kTableBranch) {
    out.writes_pc = false;  // timed as its own class; target is loaded
    out.branch_target = BranchTarget::kLoaded;
  } else if (out.cls == InstrClass::kLoadMultiple) {
    out.branch_target = BranchTarget::kLoaded;
  } else if (out.cls == InstrClass::kBranch) {
    const bool immediate = id == ARM_INS_B || id == ARM_INS_CBZ || id == ARM_INS_CBNZ ||
                           ((id == ARM_INS_BL || id == ARM_INS_BLX) && arm.op_count > 0 &&
                            arm.operands[0].type == ARM_OP_IMM);
    out.branch_target = immediate ? BranchTarget::kImmediate : BranchTarget::kRegister;
  }
}

void InstructionDecoder::add_transfer_facts(const cs_insn& insn, Instruction& out) const {
  const cs_arm& arm = insn.detail->arm;
  switch (out.cls) {
    case InstrClass::kLoadMultiple:
    case InstrClass::kStoreMultiple: {
      if (out.reg_count == 1 && out.writes_pc && insn.id != ARM_INS_POP &&
          insn.id != ARM_INS_LDM && insn.id != ARM_INS_LDMDB) {
        out.access_bytes = 4;  // LDR PC, [..]
        out.data_regs = bit(ARM_REG_PC);
        return;
      }
      const bool has_base = insn.id != ARM_INS_PUSH && insn.id != ARM_INS_POP;
      for (int i = has_base ? 1 : 0; i < arm.op_count; ++i)
        if (arm.operands[i].type == ARM_OP_REG) out.data_regs |= bit(arm.operands[i].reg);
      return;
    }
    case InstrClass::kLoad: case InstrClass::kStore:
    case InstrClass::kLoadDouble: case InstrClass::kStoreDouble: {
      // The register operands before the memory operand, but STREX's status register.
      const bool status = insn.id == ARM_INS_STREX || insn.id == ARM_INS_STREXB ||
                          insn.id == ARM_INS_STREXH || insn.id == ARM_INS_STREXD;
      const bool pair = out.cls == InstrClass::kLoadDouble || out.cls == InstrClass::kStoreDouble;
      for (int i = status ? 1 : 0, k = 0; i < arm.op_count; ++i, ++k) {
        if (arm.operands[i].type != ARM_OP_REG) break;
        out.data_regs |= bit(arm.operands[i].reg);
        if (const int r = core_reg(arm.operands[i].reg); pair && k < 2 && r >= 0)
          out.pair_regs[k] = static_cast<uint8_t>(r);  // Rt, then Rt2
      }
      // The access size from the mnemonic: ldr/str/ldrex/strex/lda/stl, then b/sb, h/sh, d.
      std::string m = insn.mnemonic;
      if (const auto dot = m.find('.'); dot != std::string::npos) m.resize(dot);
      for (const char* prefix : {"ldrex", "strex", "ldaex", "stlex", "ldr", "str", "lda", "stl"})
        if (m.rfind(prefix, 0) == 0) {
          m = m.substr(std::string(prefix).size());
          break;
        }
      if (!m.empty() && m.back() == 't') m.pop_back();  // LDRBT: unprivileged
      out.access_bytes = m == "b" || m == "sb" ? 1 : m == "h" || m == "sh" ? 2 : m == "d" ? 8 : 4;
      return;
    }
    case InstrClass::kFpuLoad: case InstrClass::kFpuStore:
      out.access_bytes = out.double_precision ? 8 : 4;
      return;
    default:
      return;
  }
}

std::string InstructionDecoder::text(uint32_t address, std::span<const uint8_t> bytes) const {
  const uint8_t* code = bytes.data();
  size_t size = bytes.size();
  uint64_t addr = address;
  if (!cs_disasm_iter(handle_, &code, &size, &addr, scratch_)) return "";
  std::string out = scratch_->mnemonic;
  if (scratch_->op_str[0] != '\0') out += std::string(" ") + scratch_->op_str;
  return out;
}

Instruction InstructionDecoder::decode(uint32_t address, std::span<const uint8_t> bytes) const {
  Instruction out;
  const uint8_t* code = bytes.data();
  size_t size = bytes.size();
  uint64_t addr = address;
  if (!cs_disasm_iter(handle_, &code, &size, &addr, scratch_)) {
    // Capstone knows no encoding here; the CPU will raise UNDEFINED if it is really executed.
    out.size_bytes = (bytes.size() >= 2 && (bytes[1] & 0xF8) >= 0xE8) ? 4 : 2;
    return out;
  }
  out.valid = true;
  out.size_bytes = static_cast<uint8_t>(scratch_->size);
  out.cls = classify(scratch_->id);
  const cs_arm& arm = scratch_->detail->arm;

  auto is_pc = [](const cs_arm_op& op) { return op.type == ARM_OP_REG && op.reg == ARM_REG_PC; };
  if (out.cls == InstrClass::kIt) out.it_firstcond_mask = bytes[0];
  switch (out.cls) {
    case InstrClass::kLoadMultiple:
    case InstrClass::kStoreMultiple: {
      // LDM/STM list the base register first; PUSH/POP list only the transferred registers.
      const bool has_base = scratch_->id != ARM_INS_PUSH && scratch_->id != ARM_INS_POP;
      int n = 0;
      for (int i = has_base ? 1 : 0; i < arm.op_count; ++i) {
        if (arm.operands[i].type != ARM_OP_REG) continue;
        ++n;
        if (out.cls == InstrClass::kLoadMultiple && is_pc(arm.operands[i])) out.writes_pc = true;
      }
      out.reg_count = static_cast<uint8_t>(n);
      break;
    }
    case InstrClass::kFpuMultiple: {
      int n = 0;
      for (int i = 0; i < arm.op_count; ++i) {
        const auto& op = arm.operands[i];
        if (op.type != ARM_OP_REG) continue;
        if (op.reg >= ARM_REG_D0 && op.reg <= ARM_REG_D31) n += 2;
        else if (op.reg >= ARM_REG_S0 && op.reg <= ARM_REG_S31) n += 1;
      }
      out.reg_count = static_cast<uint8_t>(n);
      break;
    }
    case InstrClass::kLoad:
      if (arm.op_count > 0 && is_pc(arm.operands[0])) {
        // LDR PC: one load plus the pipeline refill, timed like POP {pc}.
        out.writes_pc = true;
        out.cls = InstrClass::kLoadMultiple;
        out.reg_count = 1;
      }
      [[fallthrough]];
    case InstrClass::kStore:
      for (int i = 0; i < arm.op_count; ++i)
        if (arm.operands[i].type == ARM_OP_MEM && arm.operands[i].mem.index != ARM_REG_INVALID)
          out.register_offset = true;
      break;
    case InstrClass::kFpuTransfer: {
      // Only VMOV between core and FP registers is a transfer (M4 TRM 7.2.3: 2 cycles);
      // VMOV between FP registers or of an immediate, and VMRS/VMSR, are single-cycle.
      bool core = false;
      for (int i = 0; i < arm.op_count; ++i)
        if (arm.operands[i].type == ARM_OP_REG && core_reg(arm.operands[i].reg) >= 0) core = true;
      if (scratch_->id != ARM_INS_VMOV || !core) out.cls = InstrClass::kFpuAlu;
      break;
    }
    case InstrClass::kAlu:
      // MOV PC / ADD PC: data processing that writes PC.
      if (arm.op_count > 0 && is_pc(arm.operands[0])) {
        out.writes_pc = true;
        out.cls = InstrClass::kBranch;
      }
      break;
    default:
      break;
  }
  if (out.cls == InstrClass::kBranch) out.writes_pc = true;
  add_pipeline_facts(*scratch_, out);
  add_transfer_facts(*scratch_, out);
  if (out.cls == InstrClass::kAlu && out.size_bytes == 4 && bytes.size() >= 4)
    out.shifted_constant =
        modified_immediate_is_shifted(static_cast<uint16_t>(bytes[0] | bytes[1] << 8),
                                      static_cast<uint16_t>(bytes[2] | bytes[3] << 8));
  return out;
}

}  // namespace fathom::sim
