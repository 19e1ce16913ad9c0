// An instruction inside an IT block that sets the flags (CMP, CMN, TST, TEQ and 32-bit flag
// setters may sit there) decides the conditions of the IT's later instructions. The block mode
// must charge those later instructions from the flags as they are when each runs, not from the
// flags at the IT: the same counts as the per-instruction reference, on every core, with no
// inexact event (docs/TIMING.md "IT blocks").
//
// The loop below runs `ITT EQ; CMPEQ r2, r3; LDREQ r4, [r6]` with r0 == r1 (so the IT's EQ
// holds at the IT) and r2 == r3 only in every other round: the LDR then fails its condition
// after the CMP changed Z, and a failed load costs less than an executed one.
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

const std::string kSource = fathom::testing::reset_program(R"(
  movs r5, #0
  ldr r6, =0x20000100
1:
  movs r0, #1
  movs r1, #1
  and r2, r5, #1
  movs r3, #0
  cmp r0, r1
  itt eq
  cmpeq r2, r3           @ inside the IT: sets the flags the next condition reads
  ldreq r4, [r6]         @ executes only when r2 == r3
  adds r5, r5, #1
  cmp r5, #16
  bne 1b
)");

// The same loop with the IT's flag-setting instruction the last one of a 1 KiB page: Unicorn
// ends its translation block there, so the IT's later instruction starts the next block, whose
// hook must still read the flags (as newlib's strcmp in a wolfSSL image happened to be laid out).
const std::string kAcrossPagesSource = fathom::testing::reset_program(R"(
  movs r5, #0
  ldr r6, =0x20000100
  b 1f
  .balign 1024
  .space 1008            @ never executed: puts CMPEQ at the page's last halfword
1:
  movs r0, #1
  movs r1, #1
  and r2, r5, #1
  movs r3, #0
  cmp r0, r1
  itt eq
  cmpeq r2, r3           @ the page's last instruction: the translation block ends here
  ldreq r4, [r6]         @ the next page: the next block's first instruction
  adds r5, r5, #1
  cmp r5, #16
  bne 1b
)");

class ItFlags : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fathom_it_flags_test_" + std::to_string(::getpid()));
    image_ = fathom::testing::load_assembled(dir_, "it", GetParam(), "cortex-m4");
    if (!image_ && !HasFailure()) GTEST_SKIP() << "arm-none-eabi-gcc is not available";
    ASSERT_TRUE(image_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunOutcome run(const std::string& core, HookMode mode) {
    model::Board board = fathom::testing::fixture_board();
    board.core = core;
    return fathom::testing::run_on_board(*image_, board, mode);
  }

  fs::path dir_;
  std::unique_ptr<elf::ElfImage> image_;
};

TEST_P(ItFlags, ConditionsAfterAFlagSetterInsideAnItUseTheNewFlags) {
  for (const char* core : {"cortex-m33", "cortex-m4", "cortex-m3"}) {
    SCOPED_TRACE(core);
    const RunOutcome reference = run(core, HookMode::kPerInstruction);
    const RunOutcome block = run(core, HookMode::kBlock);
    ASSERT_TRUE(reference.exited && block.exited);
    EXPECT_EQ(block.instructions, reference.instructions);
    EXPECT_EQ(block.cycles, reference.cycles);
    EXPECT_EQ(block.inexact_events, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Layouts, ItFlags, ::testing::Values(kSource, kAcrossPagesSource),
                         [](const auto& info) {
                           return std::string(info.index == 0 ? "InOneBlock" : "AcrossAPage");
                         });

}  // namespace
}  // namespace fathom::sim
