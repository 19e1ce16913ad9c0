// profile::TaintTracker on hand-made instruction sequences: what it taints, what it flags, and
// that it flags only inside the window.
#include "profile/taint_tracker.h"

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace fathom::profile {
namespace {

using sim::InstrClass;
using sim::Instruction;
using sim::RegMask;

constexpr uint32_t kMarkSecret = 0x1000, kMarkPublic = 0x1010, kPublicValue = 0x1020,
                   kWindow = 0x1030, kDivide = 0x1040;
constexpr uint32_t kSecret = 0x20000100;  // the secret buffer (16 bytes)

RegMask r(unsigned n) { return static_cast<RegMask>(1u << n); }

Instruction alu(RegMask read, RegMask written, bool sets_flags = false) {
  Instruction i;
  i.cls = InstrClass::kAlu;
  i.size_bytes = 2;
  i.valid = true;
  i.regs_read = read;
  i.regs_written = written;
  i.sets_flags = sets_flags;
  return i;
}

Instruction load(unsigned dest, unsigned base, unsigned index, uint8_t bytes) {
  Instruction i = alu(r(base) | (index < 16 ? r(index) : 0), r(dest));
  i.cls = InstrClass::kLoad;
  i.mem_base = static_cast<uint8_t>(base);
  i.mem_index = index < 16 ? static_cast<uint8_t>(index) : Instruction::kNoRegister;
  i.address_regs = i.regs_read;
  i.mem_span_bytes = 8;
  i.access_bytes = bytes;
  i.data_regs = r(dest);
  return i;
}

Instruction store(unsigned data, unsigned base, uint8_t bytes) {
  Instruction i = alu(r(data) | r(base), 0);
  i.cls = InstrClass::kStore;
  i.mem_base = static_cast<uint8_t>(base);
  i.address_regs = r(base);
  i.mem_span_bytes = 8;
  i.access_bytes = bytes;
  i.data_regs = r(data);
  return i;
}

Instruction branch(bool conditional) {
  Instruction i = alu(0, 0);
  i.cls = InstrClass::kBranch;
  i.writes_pc = true;
  i.reads_flags = conditional;
  return i;
}

Instruction call() {
  Instruction i = branch(false);
  i.size_bytes = 4;
  i.regs_written = r(14);
  return i;
}

class TaintTrackerTest : public ::testing::Test {
 protected:
  TaintTrackerTest() : tracker_(options()) {
    tracker_.attach([this](unsigned n) { return regs_[n]; });
  }
  static TaintOptions options(bool long_multiply = false) {
    TaintOptions o;
    o.mark_secret = kMarkSecret;
    o.mark_public = kMarkPublic;
    o.public_value = kPublicValue;
    o.window = kWindow;
    o.division_routines = {kDivide};
    o.long_multiply_is_variable = long_multiply;
    return o;
  }
  // Runs `insn` at pc_ (falling through unless `next`); `regs_` must already hold the state
  // after it.
  void step(const Instruction& insn, uint32_t next = 0, bool executed = true) {
    const uint32_t to = next != 0 ? next : pc_ + insn.size_bytes;
    tracker_.on_instruction(insn, pc_, to, 1, executed, regs_[13]);
    pc_ = to;
  }
  // A call to `function` with r0, r1 = a, b, and the return to the caller.
  void call_hook(uint32_t function, uint32_t a, uint32_t b) {
    set(0, a);
    set(1, b);
    const uint32_t back = pc_ + 4;
    regs_[14] = back | 1;
    step(call(), function);
    Instruction ret = branch(false);
    ret.regs_read = r(14);
    ret.branch_target = sim::BranchTarget::kRegister;
    step(ret, back);
  }
  void mark_secret() { call_hook(kMarkSecret, kSecret, 16); }
  void window(bool open) { call_hook(kWindow, open ? 1 : 0, 0); }
  // ldrb r2, [r0]: r2 = a byte of the secret.
  void load_secret_into_r2() {
    set(0, kSecret);
    step(load(2, 0, 16, 1));
  }
  // Register n becomes `value` by an instruction that keeps its taint (a move to itself).
  void set(unsigned n, uint32_t value) {
    regs_[n] = value;
    step(alu(r(n), r(n)));
  }
  // Inside the window, a CBZ on `public_reg` is no finding and one on `secret_reg` is.
  void expect_only_secret(unsigned public_reg, unsigned secret_reg) {
    window(true);
    Instruction cbz = branch(false);
    cbz.regs_read = r(public_reg);
    step(cbz, 0x900);
    EXPECT_TRUE(tracker_.findings().empty());
    cbz.regs_read = r(secret_reg);
    step(cbz, 0x904);
    const auto f = tracker_.findings();
    ASSERT_EQ(f.size(), 1u);
    EXPECT_EQ(f[0].cls, TaintClass::kBranch);
    EXPECT_EQ(f[0].operand, "r" + std::to_string(secret_reg));
  }
  void reset_tracker(const TaintOptions& o) {
    tracker_ = TaintTracker(o);
    tracker_.attach([this](unsigned n) { return regs_[n]; });
  }
  std::array<uint32_t, 16> regs_{};
  uint32_t pc_ = 0x400;
  TaintTracker tracker_;
};

TEST_F(TaintTrackerTest, BranchOnSecretFlagsIsFoundOnlyInsideTheWindow) {
  mark_secret();
  EXPECT_EQ(tracker_.marked_bytes(), 16u);
  load_secret_into_r2();
  step(alu(r(2), 0, true));   // cmp r2, #0
  step(branch(true), 0x800);  // beq: outside the window, not a finding
  EXPECT_TRUE(tracker_.findings().empty());
  window(true);
  step(alu(r(2), 0, true));
  const uint32_t at = pc_;
  step(branch(true), 0x900);
  step(branch(true), 0x904);  // the flags are still secret
  window(false);
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].cls, TaintClass::kBranch);
  EXPECT_EQ(f[0].pc, at);
  EXPECT_EQ(f[0].operand, "flags");
  EXPECT_EQ(f[0].count, 1u);
  EXPECT_EQ(tracker_.windows(), 1u);
  EXPECT_EQ(tracker_.tainted_in_window(), 3u);
}

TEST_F(TaintTrackerTest, APublicResultClearsTheTaint) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  step(alu(0, r(2)));          // movs r2, #0: a constant
  step(alu(r(2), 0, true));    // cmp r2, #0
  step(branch(true), 0x900);
  EXPECT_TRUE(tracker_.findings().empty());
  EXPECT_EQ(tracker_.tainted_in_window(), 0u);
}

TEST_F(TaintTrackerTest, SecretIndexedLoadIsFoundAndTaintsWhatItLoads) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  set(3, 0x20001000);  // a public table
  const uint32_t at = pc_;
  step(load(4, 3, 2, 4));        // ldr r4, [r3, r2]
  step(alu(r(4), 0, true));      // cmp r4, #1
  step(branch(true), 0x900);
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].cls, TaintClass::kSecretAddress);
  EXPECT_EQ(f[0].pc, at);
  EXPECT_EQ(f[0].operand, "address r2");
  EXPECT_EQ(f[1].cls, TaintClass::kBranch);
}

TEST_F(TaintTrackerTest, MemoryKeepsTaintUntilOverwritten) {
  mark_secret();
  load_secret_into_r2();
  set(5, 0x20000800);
  step(store(2, 5, 1));    // strb r2, [r5]: the copy is secret
  step(load(6, 5, 16, 1)); // ldrb r6, [r5]
  window(true);
  step(alu(r(6), 0, true));
  step(branch(true), 0x900);
  EXPECT_EQ(tracker_.findings().size(), 1u);
  step(alu(0, r(7)));      // movs r7, #0
  step(store(7, 5, 1));    // strb r7, [r5]: overwritten with a public byte
  step(load(6, 5, 16, 1));
  step(alu(r(6), 0, true));
  step(branch(true), 0xA00);
  EXPECT_EQ(tracker_.findings().size(), 1u);
  // fathom_ct_public makes the secret itself public.
  call_hook(kMarkPublic, kSecret, 16);
  load_secret_into_r2();
  step(alu(r(2), 0, true));
  step(branch(true), 0xB00);
  EXPECT_EQ(tracker_.findings().size(), 1u);
}

TEST_F(TaintTrackerTest, PushAndPopMoveTaintWordByWordInRegisterOrder) {
  mark_secret();
  load_secret_into_r2();
  step(alu(r(2), r(5)));  // mov r5, r2
  step(alu(0, r(4)));  // movs r4, #7
  // push {r4, r5}: SP 0x20002000 -> 0x20001FF8; r4 at the lower address.
  set(13, 0x20002000);
  Instruction push = alu(r(4) | r(5) | r(13), r(13));
  push.cls = InstrClass::kStoreMultiple;
  push.mem_base = 13;
  push.mem_descending = true;
  push.mem_span_bytes = 8;
  push.address_regs = r(13);
  push.data_regs = r(4) | r(5);
  push.reg_count = 2;
  regs_[13] = 0x20001FF8;
  step(push);
  // pop {r6, r7}: r6 gets r4's word (public), r7 r5's (secret).
  Instruction pop = alu(r(13), r(6) | r(7) | r(13));
  pop.cls = InstrClass::kLoadMultiple;
  pop.mem_base = 13;
  pop.mem_span_bytes = 8;
  pop.address_regs = r(13);
  pop.data_regs = r(6) | r(7);
  pop.reg_count = 2;
  regs_[13] = 0x20002000;
  step(pop);
  expect_only_secret(6, 7);
}

// LDRD/STRD move taint word by word in operand order (Rt at the address, Rt2 above it), as
// GCC spills and reloads two unrelated registers with one instruction: before, a secret in one
// tainted both (mbedtls_mpi_core_gcd_modinv_odd's `strd r9, sl, [sp, #36]` tainted a pointer).
TEST_F(TaintTrackerTest, DoubleTransfersMoveTaintWordByWordInOperandOrder) {
  mark_secret();
  load_secret_into_r2();
  step(alu(r(2), r(4)));  // mov r4, r2: secret
  step(alu(0, r(9)));     // movs r9, #0: public
  set(13, 0x20001000);
  // strd r4, r9, [sp]: the secret word at sp, the public one at sp + 4.
  Instruction strd = alu(r(4) | r(9) | r(13), 0);
  strd.cls = InstrClass::kStoreDouble;
  strd.mem_base = 13;
  strd.address_regs = r(13);
  strd.mem_span_bytes = 8;
  strd.access_bytes = 8;
  strd.data_regs = r(4) | r(9);
  strd.pair_regs[0] = 4;
  strd.pair_regs[1] = 9;
  step(strd);
  // ldrd r7, r3, [sp]: Rt2 below Rt; r7 gets the secret word, r3 the public one.
  Instruction ldrd = alu(r(13), r(7) | r(3));
  ldrd.cls = InstrClass::kLoadDouble;
  ldrd.mem_base = 13;
  ldrd.address_regs = r(13);
  ldrd.mem_span_bytes = 8;
  ldrd.access_bytes = 8;
  ldrd.data_regs = r(7) | r(3);
  ldrd.pair_regs[0] = 7;
  ldrd.pair_regs[1] = 3;
  step(ldrd);
  expect_only_secret(3, 7);
}

TEST_F(TaintTrackerTest, DivideWithASecretOperandIsVariableLatency) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  Instruction udiv = alu(r(2) | r(3), r(0));
  udiv.cls = InstrClass::kDivide;
  udiv.needs_operand_values = true;
  udiv.operand_regs[0] = 2;
  udiv.operand_regs[1] = 3;
  step(udiv);
  Instruction umull = alu(r(2) | r(3), r(0) | r(1));
  umull.cls = InstrClass::kLongMultiply;
  umull.needs_operand_values = true;
  umull.operand_regs[0] = 2;
  umull.operand_regs[1] = 3;
  step(umull);  // fixed latency on this core (long_multiply_is_variable false)
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cls, TaintClass::kVariableLatency);
  EXPECT_EQ(f[0].operand, "r2");
}

TEST_F(TaintTrackerTest, LongMultiplyWithASecretOperandIsVariableLatencyOnTheM3) {
  reset_tracker(options(/*long_multiply=*/true));
  mark_secret();
  load_secret_into_r2();
  window(true);
  Instruction umull = alu(r(2) | r(3), r(4) | r(5));
  umull.cls = InstrClass::kLongMultiply;
  umull.needs_operand_values = true;
  umull.operand_regs[0] = 3;
  umull.operand_regs[1] = 2;
  const uint32_t at = pc_;
  step(umull);
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].cls, TaintClass::kVariableLatency);
  EXPECT_EQ(f[0].pc, at);
}

TEST(TaintOptionsFor, LongMultipliesAreVariableOnlyOnTheM3) {
  const elf::ElfImage none{};
  EXPECT_TRUE(taint_options_for(none, "cortex-m3").long_multiply_is_variable);
  EXPECT_FALSE(taint_options_for(none, "cortex-m4").long_multiply_is_variable);
  EXPECT_FALSE(taint_options_for(none, "cortex-m33").long_multiply_is_variable);
  EXPECT_EQ(taint_options_for(none, "cortex-m3").mark_secret, 0u);
}

TEST_F(TaintTrackerTest, SoftwareDivisionIsOneFindingAtTheCall) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  step(alu(r(2), r(0)));  // mov r0, r2
  const uint32_t site = pc_, back = pc_ + 4;
  regs_[14] = back | 1;
  step(call(), kDivide);
  // Inside: branches on the secret dividend, not findings of their own.
  step(alu(r(0), 0, true));
  step(branch(true), kDivide + 0x20);
  Instruction ret = branch(false);
  ret.regs_read = r(14);
  ret.branch_target = sim::BranchTarget::kRegister;
  step(ret, back);
  // Back in the caller, a branch on the (secret) quotient is a finding again.
  step(alu(r(0), 0, true));
  step(branch(true), 0x900);
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].cls, TaintClass::kSoftwareDivision);
  EXPECT_EQ(f[0].pc, site);
  EXPECT_EQ(f[0].operand, "r0, r2");  // the arguments r0-r3 that hold secrets
  EXPECT_EQ(f[1].cls, TaintClass::kBranch);
}

TEST_F(TaintTrackerTest, PublicValueClearsItsArgument) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  step(alu(r(2), r(0)));  // mov r0, r2
  call_hook(kPublicValue, regs_[0], regs_[1]);  // keeps r0's taint up to the call
  step(alu(r(0), 0, true));
  step(branch(true), 0x900);
  EXPECT_TRUE(tracker_.findings().empty());
}

TEST_F(TaintTrackerTest, IndirectBranchAndItOnSecrets) {
  mark_secret();
  load_secret_into_r2();
  window(true);
  Instruction bx = branch(false);
  bx.regs_read = r(2);
  bx.branch_target = sim::BranchTarget::kRegister;
  step(bx, 0x900);
  step(alu(r(2), 0, true));
  Instruction it = alu(0, 0);
  it.cls = InstrClass::kIt;
  step(it);
  // An instruction that failed its IT condition: its destination now depends on the flags.
  Instruction moveq = alu(0, r(8));
  moveq.reads_flags = true;
  step(moveq, 0, false);
  Instruction cbz = branch(false);
  cbz.regs_read = r(8);
  step(cbz, 0xA00);
  const auto f = tracker_.findings();
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].cls, TaintClass::kIndirectBranch);
  EXPECT_EQ(f[1].cls, TaintClass::kIt);
  EXPECT_EQ(f[2].cls, TaintClass::kBranch);
  EXPECT_EQ(f[2].operand, "r8");
}

TEST_F(TaintTrackerTest, RestoreUndoesTaintSinceTheSnapshot) {
  tracker_.on_snapshot();
  mark_secret();
  load_secret_into_r2();
  tracker_.on_restore();
  window(true);
  load_secret_into_r2();  // the buffer is public again, as at the snapshot
  step(alu(r(2), 0, true));
  step(branch(true), 0x900);
  EXPECT_TRUE(tracker_.findings().empty());
  EXPECT_EQ(tracker_.tainted_in_window(), 0u);
}

}  // namespace
}  // namespace fathom::profile
