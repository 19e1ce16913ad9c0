#include "profile/taint_tracker.h"

#include <algorithm>

namespace fathom::profile {

using sim::InstrClass;
using sim::Instruction;
using sim::RegMask;

namespace {

constexpr RegMask kPc = 1u << 15;
constexpr RegMask kArguments = 0x000F;  // r0-r3
// Longest region one fathom_ct_secret/fathom_ct_public call may mark (a guard against a bad
// length, which would otherwise allocate shadow pages for gigabytes).
constexpr uint32_t kMaxMarkBytes = 1u << 20;

// The C library's software division (libgcc's ARM EABI helpers and the routines they call).
constexpr const char* kDivisionRoutines[] = {
    "__aeabi_uidiv",  "__aeabi_idiv",    "__aeabi_uidivmod", "__aeabi_idivmod",
    "__udivsi3",      "__divsi3",        "__umodsi3",        "__modsi3",
    "__aeabi_uldivmod", "__aeabi_ldivmod", "__udivmoddi4",   "__divmoddi4",
    "__udivdi3",      "__divdi3",        "__umoddi3",        "__moddi3",
    "__gnu_uldivmod_helper", "__gnu_ldivmod_helper"};

}  // namespace

const char* taint_class_name(TaintClass c) {
  switch (c) {
    case TaintClass::kBranch: return "branch";
    case TaintClass::kIt: return "it";
    case TaintClass::kIndirectBranch: return "indirect-branch";
    case TaintClass::kSecretAddress: return "secret-address";
    case TaintClass::kVariableLatency: return "variable-latency";
    case TaintClass::kSoftwareDivision: return "software-division";
  }
  return "?";
}

TaintOptions taint_options_for(const elf::ElfImage& image, const std::string& core) {
  TaintOptions o;
  auto address = [&](const char* name) -> uint32_t {
    const elf::Symbol* s = image.find_symbol(name);
    return s != nullptr ? s->address & ~1u : 0;
  };
  o.mark_secret = address("fathom_ct_secret");
  o.mark_public = address("fathom_ct_public");
  o.public_value = address("fathom_ct_public_value");
  o.window = address("fathom_ct_window");
  for (const char* name : kDivisionRoutines)
    if (const uint32_t a = address(name); a != 0 &&
        std::find(o.division_routines.begin(), o.division_routines.end(), a) ==
            o.division_routines.end())
      o.division_routines.push_back(a);
  o.divide_is_variable = true;  // a core without UDIV/SDIV never runs one
  o.long_multiply_is_variable = core == "cortex-m3";
  return o;
}

void TaintTracker::attach(const sim::RegisterReader& read_register) {
  read_register_ = read_register;
  have_regs_ = false;
}

void TaintTracker::read_all_registers() {
  if (!read_register_) return;
  for (unsigned r = 0; r < 16; ++r) regs_[r] = read_register_(r);
  have_regs_ = true;
}

bool TaintTracker::regs_tainted(RegMask mask) const {
  mask &= static_cast<RegMask>(~kPc);
  for (unsigned r = 0; mask != 0; ++r, mask >>= 1)
    if ((mask & 1u) != 0 && shadow_.regs[r]) return true;
  return false;
}

std::string TaintTracker::tainted_regs(RegMask mask) const {
  static const char* const names[16] = {"r0", "r1", "r2",  "r3",  "r4", "r5", "r6", "r7",
                                        "r8", "r9", "r10", "r11", "r12", "sp", "lr", "pc"};
  std::string out;
  for (unsigned r = 0; r < 15; ++r)
    if ((mask >> r & 1u) != 0 && shadow_.regs[r]) out += (out.empty() ? "" : ", ") + std::string(names[r]);
  return out;
}

bool TaintTracker::memory_tainted(uint32_t address, uint32_t bytes) const {
  for (uint32_t i = 0; i < bytes; ++i) {
    const uint32_t a = address + i;
    auto it = shadow_.pages.find(a / kPageBytes);
    if (it != shadow_.pages.end() && it->second[a % kPageBytes] != 0) return true;
  }
  return false;
}

void TaintTracker::set_memory(uint32_t address, uint32_t bytes, bool tainted) {
  for (uint32_t i = 0; i < bytes; ++i) {
    const uint32_t a = address + i;
    auto it = shadow_.pages.find(a / kPageBytes);
    if (it == shadow_.pages.end()) {
      if (!tainted) continue;  // a page without secrets needs no shadow
      it = shadow_.pages.emplace(a / kPageBytes, Page{}).first;
    }
    it->second[a % kPageBytes] = tainted ? 1 : 0;
  }
}

uint32_t TaintTracker::address_of(const Instruction& insn) const {
  uint32_t ea = regs_[insn.mem_base] + static_cast<uint32_t>(insn.mem_disp);
  if (insn.mem_index != Instruction::kNoRegister) {
    const uint32_t offset = regs_[insn.mem_index] << insn.mem_shift;
    ea = insn.mem_index_subtract ? ea - offset : ea + offset;
  }
  const uint32_t span = insn.access_bytes != 0 ? insn.access_bytes : insn.mem_span_bytes;
  return insn.mem_descending ? ea - span : ea;
}

void TaintTracker::find(TaintClass cls, uint32_t pc, std::string operand) {
  auto [it, inserted] = findings_.try_emplace({pc, cls});
  TaintFinding& f = it->second;
  if (inserted) {
    f.cls = cls;
    f.pc = pc;
    f.operand = std::move(operand);
    f.order = order_++;
  }
  ++f.count;
}

void TaintTracker::propagate(const Instruction& insn, uint32_t pc, bool executed) {
  auto& regs = shadow_.regs;
  auto assign = [&](RegMask mask, bool tainted) {
    mask &= static_cast<RegMask>(~kPc);
    for (unsigned r = 0; mask != 0; ++r, mask >>= 1)
      if ((mask & 1u) != 0) regs[r] = tainted;
  };
  // An instruction that failed its IT condition wrote nothing, but what its destinations hold
  // now depends on the condition.
  if (!executed) {
    if (shadow_.flags) {
      assign(insn.regs_written, true);
      if (window_open_) ++tainted_in_window_;
    }
    return;
  }
  const bool reporting = window_open_ && !division_return_;
  const bool flag_input = insn.reads_flags && shadow_.flags;
  bool involved = flag_input;
  auto report = [&](TaintClass cls, std::string operand) {
    if (reporting) find(cls, pc, std::move(operand));
  };
  const bool memory = insn.mem_base <= 14 &&
                      (insn.access_bytes != 0 || insn.mem_span_bytes != 0);
  const RegMask address_regs = insn.address_regs & static_cast<RegMask>(~kPc);
  const bool address_tainted = memory && regs_tainted(address_regs);
  const uint32_t low = memory ? address_of(insn) : 0;
  if (address_tainted) {
    involved = true;
    report(TaintClass::kSecretAddress, "address " + tainted_regs(address_regs));
  }
  // Registers written besides the transferred ones (a writeback base, STREX's status).
  auto assign_others = [&](RegMask transferred, bool tainted) {
    assign(insn.regs_written & static_cast<RegMask>(~transferred), tainted);
  };

  switch (insn.cls) {
    case InstrClass::kLoad:
    case InstrClass::kLoadDouble:
    case InstrClass::kLoadMultiple: {
      const bool single = insn.cls != InstrClass::kLoadMultiple || insn.access_bytes != 0;
      if (insn.cls == InstrClass::kLoadDouble && insn.pair_regs[0] <= 14 && insn.pair_regs[1] <= 14) {
        // LDRD Rt, Rt2: each register from its own word.
        for (int k = 0; k < 2; ++k) {
          const bool t = (memory && memory_tainted(low + 4 * k, 4)) || address_tainted ||
                         flag_input;
          involved |= t;
          regs[insn.pair_regs[k]] = t;
        }
      } else if (single) {
        // LDR/LDRB/LDRH/LDREX (and LDREXD), and LDR PC: every destination from every byte read.
        const bool t = (memory && memory_tainted(low, insn.access_bytes)) || address_tainted ||
                       flag_input;
        involved |= t;
        assign(insn.data_regs, t);
        if ((insn.data_regs & kPc) != 0 && t) report(TaintClass::kIndirectBranch, "loaded pc");
      } else {
        // LDM/POP: one word per listed register, lowest register at the lowest address.
        uint32_t k = 0;
        for (unsigned r = 0; r < 16; ++r) {
          if ((insn.data_regs >> r & 1u) == 0) continue;
          const bool t = memory_tainted(low + 4 * k++, 4) || address_tainted || flag_input;
          involved |= t;
          if (r == 15) {
            if (t) report(TaintClass::kIndirectBranch, "loaded pc");
          } else {
            regs[r] = t;
          }
        }
      }
      assign_others(insn.data_regs, address_tainted || flag_input);
      break;
    }
    case InstrClass::kStore:
    case InstrClass::kStoreDouble:
    case InstrClass::kStoreMultiple: {
      if (!memory) break;
      if (insn.cls == InstrClass::kStoreDouble && insn.pair_regs[0] <= 14 && insn.pair_regs[1] <= 14) {
        // STRD Rt, Rt2: each word from its own register.
        for (int k = 0; k < 2; ++k) {
          const bool t = regs[insn.pair_regs[k]] || address_tainted || flag_input;
          involved |= t;
          set_memory(low + 4 * k, 4, t);
        }
      } else if (insn.cls != InstrClass::kStoreMultiple) {
        const bool t = regs_tainted(insn.data_regs) || address_tainted || flag_input;
        involved |= t;
        set_memory(low, insn.access_bytes, t);
      } else {
        uint32_t k = 0;
        for (unsigned r = 0; r < 16; ++r) {
          if ((insn.data_regs >> r & 1u) == 0) continue;
          const bool t = (r < 15 && regs[r]) || address_tainted || flag_input;
          involved |= t;
          set_memory(low + 4 * k++, 4, t);
        }
      }
      assign_others(insn.data_regs, address_tainted || flag_input);
      break;
    }
    case InstrClass::kFpuLoad:
    case InstrClass::kFpuStore:
    case InstrClass::kFpuMultiple: {
      // One taint bit for the whole FP register file: a load can add taint, never remove it.
      if (!memory) break;
      const uint32_t bytes = insn.access_bytes != 0 ? insn.access_bytes : insn.mem_span_bytes;
      const bool loads = insn.cls == InstrClass::kFpuLoad || insn.cls == InstrClass::kFpuMultiple;
      const bool stores = insn.cls == InstrClass::kFpuStore || insn.cls == InstrClass::kFpuMultiple;
      if (loads && (memory_tainted(low, bytes) || address_tainted)) shadow_.fpu = true;
      if (stores) set_memory(low, bytes, shadow_.fpu || address_tainted);
      involved |= shadow_.fpu;
      assign(insn.regs_written, address_tainted);  // VLDM/VSTM writeback
      break;
    }
    case InstrClass::kFpuTransfer:
    case InstrClass::kFpuAlu:
    case InstrClass::kFpuMac:
    case InstrClass::kFpuDivSqrt: {
      const bool core_in = regs_tainted(insn.regs_read);
      const RegMask core_out = insn.regs_written & static_cast<RegMask>(~kPc);
      if (core_out != 0 || insn.sets_flags) {
        // VMOV Rt, Sn / VMRS: a core register or the flags from the FP unit.
        const bool t = shadow_.fpu || core_in;
        assign(core_out, t);
        if (insn.sets_flags) shadow_.flags = t;
        involved |= t;
      } else {
        shadow_.fpu = shadow_.fpu || core_in;
        involved |= shadow_.fpu;
      }
      break;
    }
    case InstrClass::kBranch: {
      const RegMask inputs = insn.regs_read & static_cast<RegMask>(~kPc);
      if (flag_input) report(TaintClass::kBranch, "flags");
      if (regs_tainted(inputs)) {
        involved = true;
        if (insn.branch_target == sim::BranchTarget::kImmediate)
          report(TaintClass::kBranch, tainted_regs(inputs));  // CBZ/CBNZ
        else
          report(TaintClass::kIndirectBranch, tainted_regs(inputs));
      }
      assign(insn.regs_written, false);  // BL/BLX: LR = the return address
      break;
    }
    case InstrClass::kTableBranch:
      if (regs_tainted(address_regs)) {
        involved = true;
        report(TaintClass::kIndirectBranch, "index " + tainted_regs(address_regs));
      }
      break;
    case InstrClass::kIt:
      if (shadow_.flags) {
        involved = true;
        report(TaintClass::kIt, "flags");
      }
      break;
    default: {
      // Data processing, multiplies, divides: every result from every input.
      const bool t = regs_tainted(insn.regs_read) || flag_input;
      involved |= t;
      if (insn.needs_operand_values) {
        const RegMask operands =
            static_cast<RegMask>(1u << insn.operand_regs[0] | 1u << insn.operand_regs[1]);
        const bool variable = insn.cls == InstrClass::kDivide
                                  ? options_.divide_is_variable
                                  : insn.cls == InstrClass::kLongMultiply &&
                                        options_.long_multiply_is_variable;
        if (variable && regs_tainted(operands))
          report(TaintClass::kVariableLatency, tainted_regs(operands));
      }
      assign(insn.regs_written, t);
      if (insn.sets_flags) shadow_.flags = t;
      break;
    }
  }
  if (involved && window_open_) ++tainted_in_window_;
}

void TaintTracker::on_instruction(const Instruction& insn, uint32_t pc, uint32_t next, uint32_t,
                                  bool executed, uint32_t) {
  if (!have_regs_) read_all_registers();
  propagate(insn, pc, executed);
  // The registers after it, for the next instruction's addresses (only what it wrote changed).
  if (read_register_) {
    RegMask written = static_cast<RegMask>(insn.regs_written | (1u << 13));
    for (unsigned r = 0; r < 15; ++r)
      if ((written >> r & 1u) != 0) regs_[r] = read_register_(r);
  }
  regs_[15] = next;
  if (division_return_ && next == *division_return_) division_return_.reset();
  if (next == pc + insn.size_bytes) return;  // no call into a hook or a division routine
  if (next == options_.mark_secret || next == options_.mark_public) {
    const uint32_t bytes = std::min(regs_[1], kMaxMarkBytes);
    const bool secret = next == options_.mark_secret;
    set_memory(regs_[0], bytes, secret);
    if (secret) marked_bytes_ += bytes;
  } else if (next == options_.public_value) {
    shadow_.regs[0] = false;
  } else if (next == options_.window) {
    window_open_ = regs_[0] != 0;
    if (window_open_) ++windows_;
  } else if (!division_return_ &&
             std::find(options_.division_routines.begin(), options_.division_routines.end(),
                       next) != options_.division_routines.end()) {
    if (window_open_ && regs_tainted(kArguments))
      find(TaintClass::kSoftwareDivision, pc, tainted_regs(kArguments));
    division_return_ = regs_[14] & ~1u;  // its own branches are this one finding
  }
}

void TaintTracker::on_exception_entry(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t sp) {
  // The basic frame: r0-r3, r12, lr, return address, xPSR.
  static constexpr int kFrameRegs[8] = {0, 1, 2, 3, 12, 14, -1, -2};
  for (int i = 0; i < 8; ++i) {
    const int r = kFrameRegs[i];
    set_memory(sp + 4 * i, 4, r >= 0 ? shadow_.regs[r] : r == -2 && shadow_.flags);
  }
  read_all_registers();
}

void TaintTracker::on_exception_return(uint32_t, uint32_t, uint32_t sp) {
  const uint32_t frame = sp - 32;
  static constexpr int kFrameRegs[6] = {0, 1, 2, 3, 12, 14};
  for (int i = 0; i < 6; ++i) shadow_.regs[kFrameRegs[i]] = memory_tainted(frame + 4 * i, 4);
  shadow_.flags = memory_tainted(frame + 28, 4);
  read_all_registers();
}

void TaintTracker::on_snapshot() { snapshot_ = shadow_; }

void TaintTracker::on_restore() {
  if (snapshot_) shadow_ = *snapshot_;
  window_open_ = false;
  division_return_.reset();
  read_all_registers();
}

std::vector<TaintFinding> TaintTracker::findings() const {
  std::vector<TaintFinding> out;
  out.reserve(findings_.size());
  for (const auto& [key, f] : findings_) out.push_back(f);
  return out;
}

}  // namespace fathom::profile
