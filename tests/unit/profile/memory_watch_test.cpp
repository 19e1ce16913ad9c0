// profile::MemoryWatch on the simulator's fixture firmware (mode 9: leaves with known stack
// depths, a variable-length array, malloc/calloc/realloc/free with known sizes): exact SP
// tracking inside translation blocks, heap figures from the allocator's entry and exit, the
// same figures in both hook modes, and that watching changes no count.
#include "profile/memory_watch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <memory>

#include "elf/elf_image.h"
#include "sim/instruction_decoder.h"
#include "sim/machine.h"
#include "sim/observer_fanout.h"
#include "../sim/fixture_board.h"
#include "one_at_a_time.h"
#include "../test_paths.h"

namespace fathom::profile {
namespace {

constexpr uint32_t kMemoryMode = 9;

using Kind = StackPointerEffect::Kind;

TEST(StackPointerEffectTest, Encodings) {
  // From the fixture's disassembly (arm-none-eabi-objdump -d).
  struct Case {
    uint16_t hw1, hw2;
    Kind kind;
    int32_t delta;
  } cases[] = {
      {0xE92D, 0x0FF0, Kind::kStatic, -32},   // stmdb sp!, {r4-r11}
      {0xB090, 0, Kind::kStatic, -64},        // sub sp, #64
      {0xF5AD, 0x7D80, Kind::kStatic, -256},  // sub.w sp, sp, #256
      {0xF2AD, 0x0D0C, Kind::kStatic, -12},   // subw sp, sp, #12
      {0xF84D, 0x0D08, Kind::kStatic, -8},    // str.w r0, [sp, #-8]!
      {0xE96D, 0x0104, Kind::kStatic, -16},   // strd r0, r1, [sp, #-16]!
      {0xE8FD, 0x0104, Kind::kStatic, 16},    // ldrd r0, r1, [sp], #16
      {0xF85D, 0x0B08, Kind::kStatic, 8},     // ldr.w r0, [sp], #8
      {0xF20D, 0x0D0C, Kind::kStatic, 12},    // addw sp, sp, #12
      {0xF50D, 0x7D80, Kind::kStatic, 256},   // add.w sp, sp, #256
      {0xB010, 0, Kind::kStatic, 64},         // add sp, #64
      {0xE8BD, 0x0FF0, Kind::kStatic, 32},    // ldmia.w sp!, {r4-r11}
      {0xB430, 0, Kind::kStatic, -8},         // push {r4, r5}
      {0xBC30, 0, Kind::kStatic, 8},          // pop {r4, r5}
      {0xBD80, 0, Kind::kStatic, 8},          // pop {r7, pc}
      {0xED2D, 0x8B02, Kind::kStatic, -8},    // vpush {d8}
      {0xECBD, 0x8B02, Kind::kStatic, 8},     // vpop {d8}
      {0x469D, 0, Kind::kDynamic, 0},         // mov sp, r3
      {0x46BD, 0, Kind::kDynamic, 0},         // mov sp, r7
      {0xEBAD, 0x0D03, Kind::kDynamic, 0},    // sub.w sp, sp, r3
      {0xF8DF, 0xD010, Kind::kDynamic, 0},    // ldr.w sp, [pc, #16]
      {0xF380, 0x8808, Kind::kDynamic, 0},    // msr msp, r0
      {0x46EC, 0, Kind::kNone, 0},            // mov ip, sp
      {0xF1AC, 0x03C8, Kind::kNone, 0},       // sub.w r3, ip, #200
      {0xAF00, 0, Kind::kNone, 0},            // add r7, sp, #0
      {0x9001, 0, Kind::kNone, 0},            // str r0, [sp, #4]
      {0xF8CD, 0x0004, Kind::kNone, 0},       // str.w r0, [sp, #4]
      {0xE9CD, 0x0100, Kind::kNone, 0},       // strd r0, r1, [sp]
      {0xF7FF, 0xFF52, Kind::kNone, 0},       // bl
      {0x4770, 0, Kind::kNone, 0},            // bx lr
  };
  for (const Case& c : cases) {
    const StackPointerEffect e = stack_pointer_effect(c.hw1, c.hw2);
    EXPECT_EQ(e.kind, c.kind) << std::hex << c.hw1 << " " << c.hw2;
    EXPECT_EQ(e.delta_bytes, c.delta) << std::hex << c.hw1 << " " << c.hw2;
  }
}

TEST(StackPointerEffectTest, OnlyWhereTheMachineSeesAnSpWrite) {
  // The machine tells an observer that a run cannot move SP (InstructionRun::may_write_sp)
  // from the decoder's registers; the watch then skips its own table. So every encoding the
  // table gives an SP effect must write SP as the decoder sees it, or be a system
  // instruction: every 16-bit encoding, and every 32-bit first halfword with second
  // halfwords that name SP (or PC) in each register field and cover the immediate forms.
  const sim::InstructionDecoder decoder;
  size_t checked = 0;
  auto check = [&](uint16_t hw1, uint16_t hw2, bool wide) {
    if (stack_pointer_effect(hw1, hw2).kind == Kind::kNone) return;
    const std::array<uint8_t, 4> bytes = {static_cast<uint8_t>(hw1), static_cast<uint8_t>(hw1 >> 8),
                                          static_cast<uint8_t>(hw2), static_cast<uint8_t>(hw2 >> 8)};
    const sim::Instruction insn =
        decoder.decode(0x1000, std::span<const uint8_t>(bytes.data(), wide ? 4 : 2));
    if (!insn.valid) return;  // not an instruction: never executes
    ++checked;
    EXPECT_TRUE((insn.regs_written & (1u << 13)) ||
                (insn.cls == sim::InstrClass::kOther && !insn.nop))
        << std::hex << hw1 << " " << hw2 << ": an SP effect the decoder does not see";
  };
  for (uint32_t hw1 = 0; hw1 <= 0xFFFF; ++hw1) {
    const bool wide = (hw1 & 0xF800) == 0xE800 || (hw1 & 0xF000) == 0xF000;
    if (!wide) {
      check(static_cast<uint16_t>(hw1), 0, false);
      continue;
    }
    for (const uint16_t hw2 : {0x0000, 0x0D00, 0x0D04, 0x0D08, 0x0B08, 0x0D0C, 0x0F00, 0x7D80,
                               0x8B02, 0x8808, 0xD000, 0xD010, 0xDD00, 0x0FF0, 0x4FF0, 0x000D,
                               0x0D0D, 0xFD08, 0x0104, 0x1D04, 0xD104})
      check(static_cast<uint16_t>(hw1), hw2, true);
  }
  EXPECT_GT(checked, 1000u);
}

// The exact SP before every instruction, from kPerInstruction's `sp` (read before each one):
// the reference the watch must reproduce in kBlock from block-start SPs.
class SpReference final : public sim::ExecutionObserver {
 public:
  explicit SpReference(uint32_t entry) : entry_(entry) {}
  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t,
                      bool executed, uint32_t sp) override {
    if (inside_) lowest_ = std::min(lowest_, sp);
    if (!executed || next == pc + insn.size_bytes) return;
    if (!inside_ && (next & ~1u) == entry_) {
      inside_ = true;
      entry_sp_ = sp;  // a call does not move SP
      lowest_ = sp;
      return_ = pc + insn.size_bytes;
    } else if (inside_ && (next & ~1u) == return_) {
      inside_ = false;
    }
  }
  uint32_t depth() const { return entry_sp_ - lowest_; }

 private:
  uint32_t entry_;
  bool inside_ = false;
  uint32_t entry_sp_ = 0, lowest_ = UINT32_MAX, return_ = 0;
};

// Registers read at every taken call and at every return, through the machine's API.
class CallRegisters final : public sim::ExecutionObserver {
 public:
  explicit CallRegisters(const sim::Machine& m) : machine_(m) {}
  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t,
                      bool executed, uint32_t) override {
    if (!executed || next == pc + insn.size_bytes) return;
    if ((insn.regs_written & (1u << 14)) || insn.writes_pc ||
        insn.branch_target != sim::BranchTarget::kImmediate) {
      seen.push_back({pc, next & ~1u, machine_.read_core_register(0),
                      machine_.read_core_register(1), machine_.read_core_register(14),
                      machine_.read_core_register(13)});
    }
  }
  std::vector<std::array<uint32_t, 6>> seen;

 private:
  const sim::Machine& machine_;
};

class MemoryWatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
    if (dir.empty()) GTEST_SKIP() << "no Arm toolchain at configure time: no test firmware";
    auto img = elf::ElfImage::load(dir + "/sim_fixture.elf");
    ASSERT_TRUE(img) << img.error().message;
    image_ = std::make_unique<elf::ElfImage>(std::move(*img));
  }

  std::unique_ptr<sim::Machine> machine(sim::HookMode mode) {
    auto m = sim::Machine::create(fathom::testing::fixture_board(), mode);
    EXPECT_TRUE(m);
    EXPECT_TRUE((*m)->load(*image_));
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    EXPECT_NE(s, nullptr);
    EXPECT_TRUE((*m)->write_memory(s->address, {kMemoryMode, 0, 0, 0}));
    return std::move(*m);
  }

  MemoryWatchOptions options() const {
    MemoryWatchOptions o;
    for (const char* name : {"leaf_push_pop", "untracked_sp_leaf", "vla_user", "heap_patterns"})
      o.operations.push_back({name, image_->find_symbol(name)->address});
    o.malloc_entry = image_->find_symbol("malloc")->address;
    o.calloc_entry = image_->find_symbol("calloc")->address;
    o.realloc_entry = image_->find_symbol("realloc")->address;
    o.free_entry = image_->find_symbol("free")->address;
    return o;
  }

  struct Watched {
    sim::RunOutcome outcome;
    std::vector<OperationMemory> executions;
    uint32_t lowest_sp = 0;
    uint64_t heap_in_use = 0, heap_peak = 0, allocations = 0, inexact = 0, unknown_frees = 0;
  };
  // `single`: the watch sees the machine's runs one instruction at a time (its per-instruction
  // path), through testing::OneAtATime.
  Watched watch(sim::HookMode mode, sim::ExecutionObserver* also = nullptr, bool single = false) {
    auto m = machine(mode);
    MemoryWatchOptions o = options();
    o.registers_after_each_instruction = mode == sim::HookMode::kPerInstruction;
    MemoryWatch w(*image_, o,
                  [&m](unsigned r) { return m->read_core_register(r); });
    sim::ObserverFanout fan;
    fathom::testing::OneAtATime forward(w);
    fan.add(single ? static_cast<sim::ExecutionObserver*>(&forward) : &w);
    fan.add(also);
    m->set_observer(fan.get());
    Watched out;
    out.outcome = m->run(5'000'000);
    out.executions = w.executions();
    out.lowest_sp = w.lowest_sp();
    out.heap_in_use = w.heap_in_use_bytes();
    out.heap_peak = w.heap_peak_bytes();
    out.allocations = w.allocations();
    out.inexact = w.inexact_sp_events();
    out.unknown_frees = w.unknown_frees();
    return out;
  }

  std::unique_ptr<elf::ElfImage> image_;
};

TEST_F(MemoryWatchTest, WatchingChangesNoCount) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    const sim::RunOutcome plain = machine(mode)->run(5'000'000);
    const Watched watched = watch(mode);
    EXPECT_TRUE(plain.exited);
    EXPECT_EQ(plain.exit_code, 9);
    EXPECT_EQ(plain.cycles, watched.outcome.cycles);
    EXPECT_EQ(plain.instructions, watched.outcome.instructions);
    EXPECT_EQ(plain.console, watched.outcome.console);
  }
}

TEST_F(MemoryWatchTest, StackDepthsInsideOneBlock) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    const Watched w = watch(mode);
    ASSERT_EQ(w.executions.size(), 4u);
    for (const auto& e : w.executions) EXPECT_TRUE(e.returned);
    // Every SP write of leaf_push_pop is in one block with its entry and return: block-start
    // SPs alone would show 0 bytes.
    EXPECT_EQ(w.executions[0].peak_stack_bytes(), 388u);
    // MOV SP, Rn mid-block, worked back from the block's end in kBlock.
    EXPECT_EQ(w.executions[1].peak_stack_bytes(), 216u);
    EXPECT_EQ(w.inexact, 0u);
  }
}

TEST_F(MemoryWatchTest, VariableLengthArrayMatchesTheExactReference) {
  SpReference reference(image_->find_symbol("vla_user")->address);
  watch(sim::HookMode::kPerInstruction, &reference);
  // push {r7, lr} + 100 bytes rounded to 8 + leaf_add (no frame).
  EXPECT_EQ(reference.depth(), 112u);
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    const Watched w = watch(mode);
    ASSERT_EQ(w.executions.size(), 4u);
    EXPECT_EQ(w.executions[2].peak_stack_bytes(), reference.depth());
  }
}

TEST_F(MemoryWatchTest, RunsGiveTheFiguresOfSingleInstructions) {
  // The watch's per-run path (MemoryWatch::on_instructions) against its per-instruction one on
  // the same block-mode execution.
  const Watched by_run = watch(sim::HookMode::kBlock);
  const Watched single = watch(sim::HookMode::kBlock, nullptr, true);
  EXPECT_EQ(by_run.lowest_sp, single.lowest_sp);
  EXPECT_EQ(by_run.heap_peak, single.heap_peak);
  EXPECT_EQ(by_run.heap_in_use, single.heap_in_use);
  EXPECT_EQ(by_run.allocations, single.allocations);
  EXPECT_EQ(by_run.inexact, single.inexact);
  ASSERT_EQ(by_run.executions.size(), single.executions.size());
  for (size_t i = 0; i < by_run.executions.size(); ++i) {
    const OperationMemory &a = by_run.executions[i], &b = single.executions[i];
    EXPECT_EQ(a.entry_sp, b.entry_sp) << i;
    EXPECT_EQ(a.lowest_sp, b.lowest_sp) << i;
    EXPECT_EQ(a.deepest_pc, b.deepest_pc) << i;
    EXPECT_EQ(a.unwritten_bytes, b.unwritten_bytes) << i;
    EXPECT_EQ(a.heap_start_bytes, b.heap_start_bytes) << i;
    EXPECT_EQ(a.heap_peak_bytes, b.heap_peak_bytes) << i;
    EXPECT_EQ(a.allocations, b.allocations) << i;
    EXPECT_EQ(a.returned, b.returned) << i;
  }
}

TEST_F(MemoryWatchTest, BothHookModesAgree) {
  const Watched block = watch(sim::HookMode::kBlock);
  const Watched each = watch(sim::HookMode::kPerInstruction);
  EXPECT_EQ(block.lowest_sp, each.lowest_sp);
  ASSERT_EQ(block.executions.size(), each.executions.size());
  for (size_t i = 0; i < block.executions.size(); ++i) {
    const OperationMemory &a = block.executions[i], &b = each.executions[i];
    EXPECT_EQ(a.entry_sp, b.entry_sp) << i;
    EXPECT_EQ(a.lowest_sp, b.lowest_sp) << i;
    EXPECT_EQ(a.heap_peak_bytes, b.heap_peak_bytes) << i;
    EXPECT_EQ(a.allocations, b.allocations) << i;
  }
}

// The stack a frame reserves but never writes: painting cannot see it, the deepest SP does, and
// the watch measures it as the paint words left just above the deepest SP (the rule the
// harness/simulator stack cross-check is exact by, target/sim_target.cpp).
TEST_F(MemoryWatchTest, MeasuresReservedStackThatIsNeverWritten) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    auto m = machine(mode);
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    ASSERT_TRUE(m->write_memory(s->address, {13, 0, 0, 0}));
    // Paint the whole stack (the bottom 32 KiB of RAM) the way the harness does.
    const std::vector<uint8_t> paint(fathom::testing::fixture_board().stack_bytes, 0xC5);
    ASSERT_TRUE(m->write_memory(0x20000000u, paint));
    MemoryWatchOptions o;
    o.operations.push_back({"reserve_unwritten_leaf",
                            image_->find_symbol("reserve_unwritten_leaf")->address});
    o.registers_after_each_instruction = mode == sim::HookMode::kPerInstruction;
    MemoryWatch w(*image_, o, [&m](unsigned r) { return m->read_core_register(r); });
    w.set_memory_reader([&m](uint32_t address) { return m->read_memory_word(address); });
    m->set_observer(&w);
    const sim::RunOutcome out = m->run(5'000'000);
    EXPECT_EQ(out.exit_code, 13);
    const auto executions = w.executions();
    ASSERT_EQ(executions.size(), 1u);
    // push {r4, lr} (8, written) + sub sp, #12 of which str r4, [sp, #8] writes the top word.
    EXPECT_EQ(executions[0].peak_stack_bytes(), 20u);
    EXPECT_EQ(executions[0].unwritten_bytes, 8u);
  }
}

TEST_F(MemoryWatchTest, HeapFromTheAllocatorsEntryAndExit) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    const Watched w = watch(mode);
    ASSERT_EQ(w.executions.size(), 4u);
    const OperationMemory& heap = w.executions[3];
    EXPECT_EQ(heap.heap_start_bytes, 64u);
    // 64 + 100 + 200, then realloc to 400 while the 100 are still live.
    EXPECT_EQ(heap.heap_peak_bytes, 64u + 100 + 200 + 400);
    EXPECT_EQ(heap.allocations, 4u);
    EXPECT_EQ(w.executions[0].allocations, 0u);
    EXPECT_EQ(w.executions[0].heap_peak_bytes, 64u);
    EXPECT_EQ(w.allocations, 5u);
    EXPECT_EQ(w.heap_in_use, 64u);  // the block main keeps
    EXPECT_EQ(w.unknown_frees, 0u);
  }
}

// The heap watch reads arguments at the branch into a function and the result at the branch
// back: in kBlock the registers there are those at the next block's start. Every taken
// call/return must see the same registers as in kPerInstruction. (Not PC: Unicorn leaves it
// stale when blocks chain, which is why the watch never reads it.)
TEST_F(MemoryWatchTest, RegistersAreExactAtCallsAndReturnsInBlockMode) {
  std::vector<std::array<uint32_t, 6>> seen[2];
  int k = 0;
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    auto m = machine(mode);
    CallRegisters rec(*m);
    m->set_observer(&rec);
    m->run(5'000'000);
    seen[k++] = rec.seen;
  }
  ASSERT_GT(seen[0].size(), 100u);
  EXPECT_EQ(seen[0], seen[1]);
}

}  // namespace
}  // namespace fathom::profile
