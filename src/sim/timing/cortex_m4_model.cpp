#include "sim/timing/cortex_m4_model.h"

#include <string>

#include "sim/timing/timing_rules.h"

namespace fathom::sim::timing {

std::string CortexM4Model::name() const {
  return std::string(core_version()) + " " + fetch_.describe() +
         (refinements_ ? " refinements=on" : " refinements=off");
}

uint32_t CortexM4Model::cycles(const Instruction& insn, uint32_t address,
                               uint32_t next_address) {
  const bool sequential = address == expected_next_;
  const bool taken = next_address != address + insn.size_bytes;
  expected_next_ = address + insn.size_bytes;

  // Fetch: wait states, and the extra fetch of an unaligned 32-bit branch target (measured:
  // "a branch to an unaligned 32-bit instruction takes one extra cycle"; always on, as before
  // the switch existed). With the board's timing_refinements (measured on an M4 executing
  // from flash, shared/reference/cortex-m-timing.md "Measured refinements"): "groups of three
  // or more unaligned 32-bit instructions take one extra cycle" (charged once, to the third).
  uint32_t c = fetch_.fetch_cycles(address, insn.size_bytes, sequential);
  if (!sequential) c += unaligned_target_penalty(insn, address);
  const bool unaligned_wide = insn.size_bytes == 4 && (address & 2u) != 0;
  if (refinements_) {
    const uint8_t run = unaligned_wide ? static_cast<uint8_t>((sequential ? unaligned_run_ : 0) + 1)
                                       : uint8_t{0};
    if (run == 3 && unaligned_run_ == 2) c += 1;
    unaligned_run_ = run > 3 ? 3 : run;
  }

  // TRM 3.3.2: "a load or store whose address depends on the result of the preceding data
  // processing instruction stalls one cycle" (the AGU has no forwarding path).
  if (is_memory_access(insn.cls) && (insn.address_regs & previous_result_)) c += 1;
  if (insn.literal_load) c += fetch_.literal_cycles(address);
  // TRM 3.3.2 / measured, with timing_refinements: "LDR Rx,[PC,#imm] may add a cycle
  // (contention with instruction fetch)" — taken to add it always.
  if (refinements_ && insn.literal_load && insn.cls == InstrClass::kLoad) c += 1;

  const bool after_load = previous_load_;
  const RegMask loaded = previous_load_data_;
  const bool after_store = previous_store_;
  const bool after_16bit = previous_16bit_;
  const bool after_absorber = previous_absorbs_nop_;
  const bool after_indexed = previous_load_indexed_;
  const uint8_t after_base = previous_load_base_;
  previous_load_ = false;
  previous_store_ = false;
  previous_result_ = 0;
  previous_16bit_ = insn.size_bytes == 2;
  previous_absorbs_nop_ = false;
  previous_load_indexed_ = false;
  previous_load_base_ = 0;
  // TRM 3.3.2: a load or store after a single load whose address does not depend on it is
  // pipelined, one cycle less ("LDR R0,[R1]; LDR R1,[R2]" takes three cycles). Measured: a
  // pre/post-indexed load does not chain (indexed_load_breaks_chain: M4 on the same base, M3
  // always); with timing_refinements, "32-bit loads (LDR.W, LDRB.W) may fail to pipeline
  // when they are not word-aligned" (taken as: never pipeline then).
  bool pipelined = after_load && !(insn.address_regs & loaded);
  if (pipelined && insn.cls == InstrClass::kLoad) {
    if (indexed_load_breaks_chain(insn, after_indexed, after_base)) pipelined = false;
    if (refinements_ && unaligned_wide) pipelined = false;
  }

  switch (insn.cls) {
    case InstrClass::kOther:
      // Measured, with timing_refinements: "a load can absorb a following NOP (not CMP/TST),
      // which then costs nothing"; "register-offset stores take 2 (and can absorb a NOP)".
      if (refinements_ && insn.nop && after_absorber) return c;
      [[fallthrough]];
    case InstrClass::kAlu:
    case InstrClass::kBarrier:
      previous_result_ = insn.regs_written;
      return c + 1;
    case InstrClass::kMultiply:
    case InstrClass::kLongMultiply:
      previous_result_ = insn.regs_written;
      return c + multiply_cycles(insn);
    case InstrClass::kDivide:
      // TRM 3.3.1: 2 to 12 cycles from the operands; formula in timing_rules.h.
      previous_result_ = insn.regs_written;
      return c + divide_cycles(operands_[0], operands_[1], insn.signed_operands);
    case InstrClass::kIt:
      // TRM 3.3.1: IT folds onto the preceding 16-bit instruction (0), otherwise 1.
      return c + (after_16bit ? 0 : 1);
    case InstrClass::kLoad:
      // TRM 3.3.1: 2 cycles; 1 when pipelined. Measured: a store followed by a load costs one
      // extra cycle (write buffer draining into the same bus).
      previous_load_ = true;
      previous_load_data_ = load_data_regs(insn);
      previous_absorbs_nop_ = true;
      previous_load_indexed_ = insn.writeback;
      previous_load_base_ = insn.mem_base;
      return c + (pipelined ? 1 : 2) + (after_store ? 1 : 0);
    case InstrClass::kStore:
      // TRM 3.3.1/3.3.2: immediate offset 1 (the write buffer takes it); register offset 2, or
      // 1 when it follows a load it does not depend on. Nothing pipelines after a
      // register-offset store (no previous_load_ state is left).
      previous_store_ = true;
      if (!insn.register_offset) return c + 1;
      previous_absorbs_nop_ = true;
      return c + (pipelined ? 1 : 2);
    case InstrClass::kLoadDouble:
    case InstrClass::kStoreDouble:
      return c + 3;  // TRM 3.3.1: 3, not pipelined with neighbours
    case InstrClass::kLoadMultiple:
      // A POP/LDR PC that did not write PC failed its IT condition: skipped, 1 cycle.
      if (insn.writes_pc && !taken) return c + 1;
      // TRM 3.3.1: 1 + N, plus P when PC is loaded (LDR PC counts as N = 1: 2 + P).
      return c + 1 + insn.reg_count + (insn.writes_pc ? refill_cycles(BranchTarget::kLoaded) : 0);
    case InstrClass::kStoreMultiple:
      return c + 1 + insn.reg_count;  // TRM 3.3.1: 1 + N
    case InstrClass::kBranch:
      // TRM 3.3.1: taken 1 + P, not taken 1 — decided by where execution actually went.
      return c + (taken ? 1 + refill_cycles(insn.branch_target) : 1);
    case InstrClass::kTableBranch:
      // TRM 3.3.1: 2 (load) + 1 (add) + P (reference: "at least 6").
      return c + 3 + refill_cycles(BranchTarget::kLoaded);
    // FPU, TRM 7.2.3 (Cortex-M4F "FPU instruction set" cycle table).
    case InstrClass::kFpuAlu:
      return c + 1;  // VADD/VSUB/VMUL/VABS/VNEG/VCMP/VCVT/VMOV imm/VMRS/VMSR
    case InstrClass::kFpuMac:
      return c + 3;  // VMLA/VMLS/VFMA/VFMS/VNMLA/VNMLS
    case InstrClass::kFpuDivSqrt:
      return c + 14;  // VDIV, VSQRT
    case InstrClass::kFpuLoad:
    case InstrClass::kFpuStore:
      return c + (insn.double_precision ? 3 : 2);  // VLDR/VSTR single 2, double 3
    case InstrClass::kFpuMultiple:
      return c + 1 + insn.reg_count;  // VLDM/VSTM/VPUSH/VPOP 1 + N (doubles count twice)
    case InstrClass::kFpuTransfer:
      return c + 2;  // VMOV between core and FP registers (one or two)
  }
  return c + 1;
}

// State words: [0] the previous instruction's effects (bits 0-3 flags, 4-5 unaligned_run_,
// 6 previous_load_indexed_, 8-15 previous_load_base_, 16-31 previous_load_data_, 32-47
// previous_result_); [1] expected_next_ and the fetch word held (high half).
CoreTimingModel::State CortexM4Model::state() const {
  State s;
  s.words[0] = uint64_t{previous_load_} | uint64_t{previous_store_} << 1 |
               uint64_t{previous_16bit_} << 2 | uint64_t{previous_absorbs_nop_} << 3 |
               uint64_t{unaligned_run_ & 3u} << 4 | uint64_t{previous_load_indexed_} << 6 |
               uint64_t{previous_load_base_} << 8 | uint64_t{previous_load_data_} << 16 |
               uint64_t{previous_result_} << 32;
  s.words[1] = uint64_t{expected_next_} | uint64_t{fetch_.held_word()} << 32;
  return s;
}

void CortexM4Model::set_state(const State& s) {
  previous_load_ = s.words[0] & 1;
  previous_store_ = (s.words[0] >> 1) & 1;
  previous_16bit_ = (s.words[0] >> 2) & 1;
  previous_absorbs_nop_ = (s.words[0] >> 3) & 1;
  unaligned_run_ = static_cast<uint8_t>((s.words[0] >> 4) & 3u);
  previous_load_indexed_ = (s.words[0] >> 6) & 1;
  previous_load_base_ = static_cast<uint8_t>(s.words[0] >> 8);
  previous_load_data_ = static_cast<RegMask>(s.words[0] >> 16);
  previous_result_ = static_cast<RegMask>(s.words[0] >> 32);
  expected_next_ = static_cast<uint32_t>(s.words[1]);
  fetch_.set_held_word(static_cast<uint32_t>(s.words[1] >> 32));
}

uint64_t CortexM4Model::state_key(uint32_t address) const {
  uint64_t key = state().words[0];
  // The loaded registers and the indexed base matter only right after a load (`cycles` reads
  // them then alone).
  if (!previous_load_) key &= ~(uint64_t{0xFFFF} << 16 | uint64_t{0xFF} << 8 | uint64_t{1} << 6);
  return key | uint64_t{expected_next_ == address} << 48 |
         uint64_t{fetch_.holds_word_of(address)} << 49;
}

}  // namespace fathom::sim::timing
