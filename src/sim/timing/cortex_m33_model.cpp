#include "sim/timing/cortex_m33_model.h"

#include <string>

#include "sim/timing/timing_rules.h"

namespace fathom::sim::timing {

std::string CortexM33Model::name() const { return "cortex-m33/1 " + fetch_.describe(); }

// Issue cycles without latencies or pairing. Sources: "measured" = the RP2350 DWT
// measurements; "M4" = the Cortex-M4 TRM table where nothing M33-specific is known.
uint32_t CortexM33Model::base_cycles(const Instruction& insn, bool taken) const {
  switch (insn.cls) {
    case InstrClass::kAlu:
    case InstrClass::kOther:
    case InstrClass::kBarrier:
      return 1;
    case InstrClass::kMultiply:
      return insn.size_bytes == 2 ? 2 : 1;  // measured: MULS (16-bit, flag-setting) 2
    case InstrClass::kLongMultiply:
      return 1;  // measured: multiplies issue every cycle (result latency 2, below)
    case InstrClass::kDivide:
      // Assumed as the M4 (timing_rules.h divide_cycles); Arm gives no M33 figure here.
      return divide_cycles(operands_[0], operands_[1], insn.signed_operands);
    case InstrClass::kIt:
      return 1;  // folding handled by the caller
    case InstrClass::kLoad:
    case InstrClass::kStore:
      return 1;  // measured: load-to-use latency 2 (the stall is charged to the user)
    case InstrClass::kLoadDouble:
    case InstrClass::kStoreDouble:
      return 2;  // measured
    case InstrClass::kLoadMultiple:
      // A POP/LDR PC that did not write PC failed its IT condition: skipped, 1 cycle.
      if (insn.writes_pc && !taken) return 1;
      // measured: LDM of x registers x cycles; PC loaded: + P (M4 rule).
      return insn.reg_count + (insn.writes_pc ? refill_cycles(BranchTarget::kLoaded) : 0);
    case InstrClass::kStoreMultiple:
      return insn.reg_count;  // measured
    case InstrClass::kBranch:
      return taken ? 1 + refill_cycles(insn.branch_target) : 1;  // M4 rule; pairing below
    case InstrClass::kTableBranch:
      return 3 + refill_cycles(BranchTarget::kLoaded);  // M4 rule
    case InstrClass::kFpuAlu:
      return 1;
    case InstrClass::kFpuMac:
      return 1;  // measured: issues in 1 cycle, then blocks the FPU (below)
    case InstrClass::kFpuDivSqrt:
      return 14;  // M4 FPU table (FPv5 single precision, same iteration count assumed)
    case InstrClass::kFpuLoad:
    case InstrClass::kFpuStore:
      return insn.double_precision ? 2 : 1;  // measured: VLDR.32 1 cycle, 1-cycle load-to-use
    case InstrClass::kFpuMultiple:
      return insn.reg_count;  // measured: "FPU multiples too" take x cycles
    case InstrClass::kFpuTransfer:
      return 1;
  }
  return 1;
}

uint32_t CortexM33Model::cycles(const Instruction& insn, uint32_t address,
                                uint32_t next_address) {
  const bool sequential = address == expected_next_;
  const bool taken = next_address != address + insn.size_bytes;
  expected_next_ = address + insn.size_bytes;

  uint32_t c = fetch_.fetch_cycles(address, insn.size_bytes, sequential);
  if (!sequential) c += unaligned_target_penalty(insn, address);
  if (insn.literal_load) c += fetch_.literal_cycles(address);

  // Result latency 2 (measured) for loads, multiplies and operand-2 shifts: a use by the very
  // next instruction waits one cycle. Exceptions (measured): a store may take a loaded value
  // as its data ("load-to-store latency 1"), and a MAC takes the previous multiply's result
  // as its accumulator ("an accumulator chain can issue every cycle").
  RegMask waits_on = insn.regs_read & late_result_;
  if (late_from_load_ && (insn.cls == InstrClass::kStore || insn.cls == InstrClass::kStoreDouble ||
                          insn.cls == InstrClass::kStoreMultiple))
    waits_on &= insn.address_regs;
  if (late_from_mac_ && insn.accumulates)
    waits_on &= static_cast<RegMask>(~insn.accumulator_regs);
  const uint32_t stall = waits_on ? 1 : 0;

  uint32_t issue = base_cycles(insn, taken);
  // Dual issue (measured, implemented conservatively; docs/TIMING.md): the second of two
  // 16-bit instructions in one fetch word issues with the first when both are data
  // processing, it neither reads nor writes a register the first writes, and the first's
  // flags are not needed or overwritten by it. A 16-bit conditional branch after a 16-bit
  // instruction that does not set flags pairs the same way: not taken 0, taken 1 + P - 1.
  bool paired = false;
  const bool pair_slot = stall == 0 && previous_pairable_ && sequential &&
                         insn.size_bytes == 2 && (address & 2u) != 0 &&
                         !(insn.regs_read & previous_written_);
  if (pair_slot) {
    if (insn.cls == InstrClass::kAlu && !insn.writes_pc &&
        !(insn.regs_written & previous_written_) &&
        !(previous_sets_flags_ && (insn.sets_flags || insn.reads_flags))) {
      issue = 0;
      paired = true;
    } else if (insn.cls == InstrClass::kBranch && insn.branch_target == BranchTarget::kImmediate &&
               !previous_sets_flags_) {
      issue -= 1;
      paired = true;
    }
  }
  // IT folds onto a preceding 16-bit instruction (M4 TRM 3.3.1; assumed the same here).
  if (insn.cls == InstrClass::kIt && previous_16bit_) issue = 0;

  // VFMA/VMLA (measured): no FP instruction issues in the next 2 cycles.
  uint32_t fpu_wait = 0;
  if (is_fpu(insn.cls) && fpu_busy_cycles_ > 0) fpu_wait = fpu_busy_cycles_;
  const uint32_t total = c + stall + fpu_wait + issue;
  fpu_busy_cycles_ = fpu_busy_cycles_ > total ? fpu_busy_cycles_ - total : 0;
  if (insn.cls == InstrClass::kFpuMac) fpu_busy_cycles_ = 2;

  // State for the next instruction.
  late_result_ = 0;
  late_from_load_ = false;
  late_from_mac_ = false;
  switch (insn.cls) {
    case InstrClass::kLoad:
    case InstrClass::kLoadDouble:
      late_result_ = load_data_regs(insn);
      late_from_load_ = true;
      break;
    case InstrClass::kMultiply:
    case InstrClass::kLongMultiply:
      late_result_ = insn.regs_written;
      late_from_mac_ = true;
      break;
    case InstrClass::kAlu:
      if (insn.shifted_operand) late_result_ = insn.regs_written;
      break;
    default:
      break;
  }
  previous_written_ = insn.regs_written;
  previous_sets_flags_ = insn.sets_flags;
  previous_16bit_ = insn.size_bytes == 2;
  previous_pairable_ = !paired && insn.size_bytes == 2 && insn.cls == InstrClass::kAlu &&
                       !insn.writes_pc && (address & 2u) == 0;
  return total;
}

// State words: [0] the previous instruction's effects (bits 0-15 late_result_, 16-31
// previous_written_, 32-36 flags, 40-47 fpu_busy_cycles_); [1] expected_next_ and the fetch
// word held (high half).
CoreTimingModel::State CortexM33Model::state() const {
  State s;
  s.words[0] = uint64_t{late_result_} | uint64_t{previous_written_} << 16 |
               uint64_t{late_from_load_} << 32 | uint64_t{late_from_mac_} << 33 |
               uint64_t{previous_pairable_} << 34 | uint64_t{previous_sets_flags_} << 35 |
               uint64_t{previous_16bit_} << 36 | uint64_t{fpu_busy_cycles_ & 0xFFu} << 40;
  s.words[1] = uint64_t{expected_next_} | uint64_t{fetch_.held_word()} << 32;
  return s;
}

void CortexM33Model::set_state(const State& s) {
  late_result_ = static_cast<RegMask>(s.words[0]);
  previous_written_ = static_cast<RegMask>(s.words[0] >> 16);
  late_from_load_ = (s.words[0] >> 32) & 1;
  late_from_mac_ = (s.words[0] >> 33) & 1;
  previous_pairable_ = (s.words[0] >> 34) & 1;
  previous_sets_flags_ = (s.words[0] >> 35) & 1;
  previous_16bit_ = (s.words[0] >> 36) & 1;
  fpu_busy_cycles_ = static_cast<uint32_t>(s.words[0] >> 40) & 0xFFu;
  expected_next_ = static_cast<uint32_t>(s.words[1]);
  fetch_.set_held_word(static_cast<uint32_t>(s.words[1] >> 32));
}

uint64_t CortexM33Model::state_key(uint32_t address) const {
  // fpu_busy_cycles_ is at most 2 (set to 2 by a MAC, then only decreases): 8 bits hold it.
  return state().words[0] | uint64_t{expected_next_ == address} << 48 |
         uint64_t{fetch_.holds_word_of(address)} << 49;
}

}  // namespace fathom::sim::timing
