#include "sim/timing/cortex_m33_model.h"

#include <string>

#include "sim/timing/timing_rules.h"

namespace fathom::sim::timing {

std::string CortexM33Model::name() const { return "cortex-m33/2 " + fetch_.describe(); }

// Issue cycles without latencies or pairing. Sources: "measured" = the RP2350 DWT
// measurements; "M4" = the Cortex-M4 TRM table where nothing M33-specific is known.
namespace {

// Instructions whose result comes out of the second (accumulate) stage, one cycle late
// (measured: MACs, extend-and-add, shifted-register and shifted-constant operand 2). The
// two-stage flag-setting forms take 2 cycles instead (their result is then ready).
bool two_stage_flag_setting(const Instruction& insn) {
  // Measured: "MULS (16-bit) and operand2-shifted-constant forms that set flags" take 2;
  // "inline shifted-register forms and MOVS.W are not affected".
  if (insn.cls == InstrClass::kMultiply) return insn.size_bytes == 2;
  return insn.cls == InstrClass::kAlu && insn.shifted_constant && insn.sets_flags && !insn.move;
}

bool single_load_or_store(InstrClass cls) {
  return cls == InstrClass::kLoad || cls == InstrClass::kStore;
}

bool is_store(InstrClass cls) {
  return cls == InstrClass::kStore || cls == InstrClass::kStoreDouble ||
         cls == InstrClass::kStoreMultiple;
}

}  // namespace

// Issue cycles without latencies or pairing. Sources: "measured" = the RP2350 DWT
// measurements; "M4" = the Cortex-M4 TRM table where nothing M33-specific is known.
uint32_t CortexM33Model::base_cycles(const Instruction& insn, bool taken) const {
  switch (insn.cls) {
    case InstrClass::kAlu:
      return two_stage_flag_setting(insn) ? 2 : 1;  // measured
    case InstrClass::kOther:
    case InstrClass::kBarrier:
      return 1;
    case InstrClass::kMultiply:
      return two_stage_flag_setting(insn) ? 2 : 1;  // measured: MULS (16-bit) 2
    case InstrClass::kLongMultiply:
      return 1;  // measured: multiplies issue every cycle (result latency 2, below)
    case InstrClass::kDivide:
      // Assumed as the M4 (timing_rules.h divide_cycles); Arm gives no M33 figure here.
      return divide_cycles(operands_[0], operands_[1], insn.signed_operands);
    case InstrClass::kIt:
      return 1;  // pairing handled by the caller
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

  // Result latency 2 (measured) for loads and for accumulate-stage results (multiplies, MACs,
  // extend-and-add, shifted-register or shifted-constant operand 2): a use by the very next
  // instruction waits one cycle, except (measured)
  //  - a store that only stores the value (load-to-store latency 1; "a store can store a
  //    result from the accumulate stage after 1 cycle"): its address registers still wait;
  //  - a MAC's accumulator input, from a load ("a loaded value can feed a MAC's accumulate
  //    input after 1 cycle") or from the accumulate stage ("the accumulator can come from the
  //    previous MAC, an extend-and-add or a shifted-operand2 instruction without a stall");
  //  - an extend-and-add's accumulate input (Rn) from the accumulate stage ("can be chained
  //    like a MAC"), but not from a load ("not an extend-and-add or shifted-operand2").
  // A shifted-operand-2 instruction has no chained input ("such results cannot be chained
  // like multiply-accumulates"): all its inputs wait.
  RegMask waits_on = insn.regs_read & late_result_;
  if (waits_on) {
    if (is_store(insn.cls)) {
      waits_on &= insn.address_regs;
    } else if (insn.accumulates) {
      waits_on &= static_cast<RegMask>(~insn.accumulator_regs);
    } else if (insn.extend_add && !late_from_load_) {
      waits_on &= static_cast<RegMask>(~insn.accumulator_regs);
    }
  }
  // Measured: "flags from a shifted-register operand2 instruction are available one cycle
  // later than normal". IT is exempt ("IT pairs with the preceding instruction, wherever the
  // flags came from").
  const bool flag_wait = flags_late_ && insn.reads_flags && insn.cls != InstrClass::kIt;
  const uint32_t stall = (waits_on || flag_wait) ? 1 : 0;

  uint32_t issue = base_cycles(insn, taken);
  // Dual issue (measured, "limited"): only two 16-bit instructions issue together, the pair
  // need not be word-aligned but the second must already be fetched (previous_leads_), and
  // only these pairs exist:
  //  - IT with the preceding instruction;
  //  - a 16-bit branch (B, B<cond>, CBZ/CBNZ) in the second slot: not taken 0, even after a
  //    flag-setting instruction ("subs r7,#1; bne" = 1 + 0); taken "effectively 1" after a
  //    16-bit instruction that does not set flags (LDM/STM included: "ldmia r6!, {r0-r3};
  //    bne" = 4 + 1 taken), else 1 + P;
  //  - a NOP with an arithmetic or a single load/store instruction, in either order.
  // Arithmetic + arithmetic and load/store + arithmetic never pair.
  bool paired = false;
  if (stall == 0 && previous_leads_ && sequential && insn.size_bytes == 2) {
    if (insn.cls == InstrClass::kIt) {
      issue = 0;
      paired = true;
    } else if (insn.cls == InstrClass::kBranch &&
               insn.branch_target == BranchTarget::kImmediate) {
      if (!taken) {
        issue = 0;
        paired = true;
      } else if (!previous_sets_flags_) {
        issue = 1;
        paired = true;
      }
    } else if (previous_nop_ && ((insn.cls == InstrClass::kAlu && !insn.writes_pc) ||
                                 single_load_or_store(insn.cls))) {
      issue = 0;
      paired = true;
    } else if (insn.nop && previous_alu_or_memory_) {
      issue = 0;
      paired = true;
    }
  }

  // VFMA/VMLA (measured): no FP instruction issues in the next 2 cycles.
  uint32_t fpu_wait = 0;
  if (is_fpu(insn.cls) && fpu_busy_cycles_ > 0) fpu_wait = fpu_busy_cycles_;
  const uint32_t total = c + stall + fpu_wait + issue;
  fpu_busy_cycles_ = fpu_busy_cycles_ > total ? fpu_busy_cycles_ - total : 0;
  if (insn.cls == InstrClass::kFpuMac) fpu_busy_cycles_ = 2;

  // State for the next instruction. An instruction that issued with the previous one in the
  // same cycle (paired, 0 cycles: a NOP, IT or not-taken branch in the second slot) lets no
  // time pass: the previous instruction's late results and flags stay late for the next.
  const bool no_time_passed = paired && total == 0;
  const RegMask kept_late = no_time_passed ? late_result_ : RegMask{0};
  const bool kept_from_load = no_time_passed && late_from_load_;
  const bool kept_flags_late = no_time_passed && flags_late_;
  late_result_ = 0;
  late_from_load_ = false;
  switch (insn.cls) {
    case InstrClass::kLoad:
    case InstrClass::kLoadDouble:
      late_result_ = load_data_regs(insn);
      late_from_load_ = true;
      break;
    case InstrClass::kMultiply:
    case InstrClass::kLongMultiply:
      if (!two_stage_flag_setting(insn)) late_result_ = insn.regs_written;
      break;
    case InstrClass::kAlu:
      if ((insn.shifted_operand || insn.shifted_constant || insn.extend_add) &&
          !two_stage_flag_setting(insn))
        late_result_ = insn.regs_written;
      break;
    default:
      break;
  }
  flags_late_ = kept_flags_late ||
                (insn.cls == InstrClass::kAlu && insn.shifted_operand && insn.sets_flags);
  if (kept_late) {  // the second of the pair wrote nothing late itself (a NOP, IT or branch)
    late_result_ = kept_late;
    late_from_load_ = kept_from_load;
  }
  const bool leads = insn.size_bytes == 2 && !paired && !insn.writes_pc &&
                     insn.cls != InstrClass::kBranch && insn.cls != InstrClass::kIt &&
                     insn.cls != InstrClass::kTableBranch;
  // The next 16-bit instruction is in this one's fetch word when this one is word-aligned;
  // otherwise in the next word, which the core holds unless this one was a branch target
  // (assumption: after a change of flow the target's word arrives first).
  previous_leads_ = leads && ((address & 2u) == 0 || sequential);
  previous_nop_ = insn.nop;
  previous_alu_or_memory_ =
      (insn.cls == InstrClass::kAlu && !insn.writes_pc) || single_load_or_store(insn.cls);
  previous_sets_flags_ = insn.sets_flags;
  return total;
}

// State words: [0] the previous instruction's effects (bits 0-15 late_result_, 16-21 flags,
// 40-47 fpu_busy_cycles_); [1] expected_next_ and the fetch word held (high half).
CoreTimingModel::State CortexM33Model::state() const {
  State s;
  s.words[0] = uint64_t{late_result_} | uint64_t{late_from_load_} << 16 |
               uint64_t{flags_late_} << 17 | uint64_t{previous_leads_} << 18 |
               uint64_t{previous_nop_} << 19 | uint64_t{previous_alu_or_memory_} << 20 |
               uint64_t{previous_sets_flags_} << 21 | uint64_t{fpu_busy_cycles_ & 0xFFu} << 40;
  s.words[1] = uint64_t{expected_next_} | uint64_t{fetch_.held_word()} << 32;
  return s;
}

void CortexM33Model::set_state(const State& s) {
  late_result_ = static_cast<RegMask>(s.words[0]);
  late_from_load_ = (s.words[0] >> 16) & 1;
  flags_late_ = (s.words[0] >> 17) & 1;
  previous_leads_ = (s.words[0] >> 18) & 1;
  previous_nop_ = (s.words[0] >> 19) & 1;
  previous_alu_or_memory_ = (s.words[0] >> 20) & 1;
  previous_sets_flags_ = (s.words[0] >> 21) & 1;
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
