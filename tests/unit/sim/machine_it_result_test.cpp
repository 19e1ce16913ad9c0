// An IT whose outcome a register tells (sim/it_result.h) needs no hook in the block mode even
// when a later instruction of its translation block overwrites the flags its condition was
// decided from: the machine reads the register when it charges the block, and gets the
// per-instruction reference's counts. Where a later instruction writes that register, the IT
// keeps its hook (added when its block first runs: a retranslated block), with the same counts.
//
// The loop runs `ITE CS; MOVCS r0, #1; MOVCC r0, #0` (or `MOVCS r0, r4; ADDCC r0, r4, #1`)
// with C set in every other round, then two NOPs (on the M33 the skipped instruction behaves as
// a NOP, and which of the two runs changes how the NOPs issue: the reference gives 171 cycles
// for the loop, the block mode with the two outcomes swapped gave 163) and sets the flags again
// before the block ends: the flags at the block's end say nothing about the IT.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "sim/machine.h"
#include "assembled_image.h"
#include "fixture_board.h"
#include "run_on_board.h"

namespace fathom::sim {
namespace {

namespace fs = std::filesystem;

std::string loop_source(const char* use_of_r0,
                        const char* then_else = "movcs r0, #1\n  movcc r0, #0") {
  return fathom::testing::reset_program(std::string(R"(
  movs r5, #0
  movs r1, #0
1:
  mov r4, r5
  and r3, r5, #1
  cmp r3, #1             @ C when r3 == 1: every other round
  ite cs
  )") + then_else + R"(
  nop
  nop
  )" + use_of_r0 + R"(
  adds r5, r5, #1        @ flags again: the IT's condition is no longer in them
  cmp r5, #16
  bne 1b
)");
}

// `CMP r3, r1; IT CS; MOVCS r3, r1` (a minimum) with r3 >= r1 in 12 rounds of 16. On the M33
// the NOP after the MOV pairs with it only when it executed (a skipped instruction is no
// arithmetic), so the outcome changes the cost. Code goes in at three places: before the CMP
// (a branch there makes the CMP start its translation block), between the CMP and the IT (a
// branch there makes the IT start it) and after the use of r3 (a write of r3 there keeps the
// registers from telling the move).
struct MinimumLoop {
  const char* before_compare = "";
  const char* before_it = "";
  const char* after_use = "";
};

std::string minimum_source(const MinimumLoop& loop) {
  return fathom::testing::reset_program(std::string(R"(
  movs r5, #0
  movs r1, #4
  movs r2, #0
1:
  and r3, r5, #15
  )") + loop.before_compare + R"(
  cmp r3, r1
  )" + loop.before_it + R"(
  it cs
  movcs r3, r1
  nop                    @ pairs with the MOV only when it executed
  add.w r2, r2, r3       @ reads r3; 32-bit: pairs with nothing
  )" + loop.after_use + R"(
  adds r5, r5, #1        @ flags again
  cmp r5, #16
  bne 1b
)");
}

// Every instruction as an observer sees it: address, successor, cycles, executed.
class RecordingObserver final : public ExecutionObserver {
 public:
  void on_instruction(const Instruction&, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t) override {
    events.push_back({pc, next, cycles, executed});
  }
  struct Event {
    uint32_t pc, next, cycles;
    bool executed;
    bool operator==(const Event&) const = default;
  };
  std::vector<Event> events;
};

class ItResultMachine : public ::testing::Test {
 protected:
  void TearDown() override { fs::remove_all(dir_); }

  bool load(const std::string& source) {
    image_ = fathom::testing::load_assembled(dir_, "it_result", source);
    return image_ != nullptr;
  }

  RunOutcome run(HookMode mode, ExecutionObserver* observer = nullptr) {
    model::Board board = fathom::testing::fixture_board();
    board.core = "cortex-m33";
    return fathom::testing::run_on_board(*image_, board, mode, 100'000, observer);
  }

  // Runs the image in both modes: the block mode's counts equal the reference's, with no
  // inexact event. Returns the block mode's outcome.
  RunOutcome expect_same_as_reference() {
    const RunOutcome reference = run(HookMode::kPerInstruction);
    const RunOutcome block = run(HookMode::kBlock);
    EXPECT_TRUE(reference.exited && block.exited);
    EXPECT_EQ(block.instructions, reference.instructions);
    EXPECT_EQ(block.cycles, reference.cycles);
    EXPECT_EQ(block.inexact_events, 0u);
    return block;
  }

  fs::path dir_ = fs::temp_directory_path() / ("fathom_it_result_test_" + std::to_string(::getpid()));
  std::unique_ptr<elf::ElfImage> image_;
};

TEST_F(ItResultMachine, TheRegisterDecidesTheConditionWithoutAHook) {
  if (!load(loop_source("add r1, r1, r0         @ reads r0 only"))) GTEST_SKIP() << "no toolchain";
  const RunOutcome block = expect_same_as_reference();
  EXPECT_EQ(block.retranslated_blocks, 0u);  // no hook was added
  // The loop's block is charged from its memo once each outcome was seen (the memo keys on
  // which instructions executed), and an observer still sees every instruction as the
  // reference reports it.
  EXPECT_GT(block.memoized_blocks, 10u);
  RecordingObserver seen, reference_seen;
  const RunOutcome observed = run(HookMode::kBlock, &seen);
  const RunOutcome reference = run(HookMode::kPerInstruction, &reference_seen);
  EXPECT_EQ(observed.cycles, reference.cycles);
  EXPECT_GT(observed.memoized_blocks, 10u);
  EXPECT_EQ(seen.events, reference_seen.events);
  EXPECT_EQ(seen.events.size(), reference.instructions);
}

TEST_F(ItResultMachine, AWriteOfTheRegisterAfterTheItKeepsTheHook) {
  if (!load(loop_source("add r0, r0, r1         @ writes r0: it cannot tell any more")))
    GTEST_SKIP() << "no toolchain";
  const RunOutcome block = expect_same_as_reference();
  EXPECT_GT(block.retranslated_blocks, 0u);  // the IT's hook, added when its block first ran
}

TEST_F(ItResultMachine, ARegisterPlusAConstantDecidesTooWithoutAHook) {
  // r4 differs in every round; r0 is r4 or r4 + 1 (mbedtls_mpi_core_sub's borrow)
  if (!load(loop_source("add r1, r1, r0", "movcs r0, r4\n  addcc r0, r4, #1")))
    GTEST_SKIP() << "no toolchain";
  EXPECT_EQ(expect_same_as_reference().retranslated_blocks, 0u);
  // ... unless a later instruction writes r4
  ASSERT_TRUE(load(loop_source("add r4, r4, r1", "movcs r0, r4\n  addcc r0, r4, #1")));
  EXPECT_GT(expect_same_as_reference().retranslated_blocks, 0u);
}

TEST_F(ItResultMachine, AMinimumDecidesAfterItsCompareWithoutAHook) {
  // The reference gives 151 cycles; the block mode with the outcomes swapped gave 159.
  if (!load(minimum_source({}))) GTEST_SKIP() << "no toolchain";
  const RunOutcome block = expect_same_as_reference();
  EXPECT_EQ(block.retranslated_blocks, 0u);
  EXPECT_GT(block.memoized_blocks, 10u);
  // Reached by a branch, the IT starts its block without the CMP: it gets its hook.
  ASSERT_TRUE(load(minimum_source({.before_it = "b 3f\n3:"})));
  EXPECT_GT(expect_same_as_reference().retranslated_blocks, 0u);
}

TEST_F(ItResultMachine, ACompareOfTheBlocksEntryValuesDecidesWithoutAHook) {
  // The minimum at the start of a block (a branch target), with r3 written after its use: the
  // registers cannot tell the move, but the CMP's operands are the block's entry values. The
  // reference gives 183 cycles; the block mode with the flags inverted gave 191.
  constexpr const char* kWritesR3 = "add.w r3, r3, #1       @ writes r3";
  if (!load(minimum_source({.before_compare = "b 3f\n3:", .after_use = kWritesR3})))
    GTEST_SKIP() << "no toolchain";
  const RunOutcome block = expect_same_as_reference();
  EXPECT_EQ(block.retranslated_blocks, 0u);
  EXPECT_GT(block.memoized_blocks, 10u);
  // An operand written in the block before the CMP: the IT gets its hook.
  ASSERT_TRUE(load(minimum_source(
      {.before_compare = "b 3f\n3:\n  add.w r3, r3, #0", .after_use = kWritesR3})));
  EXPECT_GT(expect_same_as_reference().retranslated_blocks, 0u);
}

}  // namespace
}  // namespace fathom::sim
