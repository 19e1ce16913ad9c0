// sim::Machine with a `console = "cmsdk-uart"` board (the QEMU MPS2 boards) running the QEMU
// boards' board layer (tests/fixtures/firmware/cmsdk_fixture.c): the UART's registers at
// console_address, the exit through semihosting, and a register the model lacks.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "elf/elf_image.h"
#include "fixture_board.h"
#include "model/board.h"
#include "sim/machine.h"
#include "../test_paths.h"

namespace fathom::sim {
namespace {

constexpr uint64_t kBudgetCycles = 5'000'000;

class MachineCmsdkConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
    if (dir.empty())
      GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time; no test firmware";
    auto img = elf::ElfImage::load(dir + "/cmsdk_fixture.elf");
    ASSERT_TRUE(img) << img.error().message;
    image_ = std::make_unique<elf::ElfImage>(std::move(*img));
    board_.console = model::ConsoleKind::kCmsdkUart;
    board_.console_address = 0x40004000u;
  }

  RunOutcome run(uint32_t mode, HookMode hooks = HookMode::kBlock) {
    auto m = Machine::create(board_, hooks);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    auto loaded = (*m)->load(*image_);
    EXPECT_TRUE(loaded) << loaded.error().message;
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    EXPECT_NE(s, nullptr);
    if (!s) return {};
    auto written = (*m)->write_memory(s->address, {static_cast<uint8_t>(mode), 0, 0, 0});
    EXPECT_TRUE(written) << written.error().message;
    return (*m)->run(kBudgetCycles);
  }

  model::Board board_ = fathom::testing::fixture_board();
  std::unique_ptr<elf::ElfImage> image_;
};

TEST_F(MachineCmsdkConsoleTest, UartRegistersAndSemihostingExit) {
  for (HookMode hooks : {HookMode::kBlock, HookMode::kPerInstruction}) {
    const RunOutcome out = run(0, hooks);
    ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
    EXPECT_TRUE(out.exited);
    EXPECT_EQ(out.exit_code, 5) << "the semihosting SYS_EXIT_EXTENDED code, not a STATE write";
    // The board layer set BAUDDIV and CTRL.TX before the first byte; STATE is never full.
    EXPECT_EQ(out.console, "hello\nctrl 1 bauddiv 16 state 0 intstatus 0\ndone\n");
    // The DWT reads of the QEMU boards' counter are the simulator's cycle counter.
    EXPECT_EQ(out.cycle_counter_reads.size(), 2u);
    EXPECT_EQ(out.inexact_events, 0u);
  }
}

TEST_F(MachineCmsdkConsoleTest, SameImageOnTheSimConsoleStopsAtTheStateWrite) {
  // The simulator's own console has EXIT at offset 4: the image's STATE write (0xF) ends the
  // run there, which is why a CMSDK board must say `console = "cmsdk-uart"`.
  board_.console = model::ConsoleKind::kSim;
  const RunOutcome out = run(0);
  ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
  EXPECT_TRUE(out.exited);
  EXPECT_EQ(out.exit_code, 0xF);
  EXPECT_EQ(out.console, "hello\nctrl 0 bauddiv 0 state 0 intstatus 0\n");
}

TEST_F(MachineCmsdkConsoleTest, WriteToAnUnmodelledUartRegisterIsAFault) {
  const RunOutcome out = run(1);
  ASSERT_TRUE(out.fault) << "console: " << out.console;
  EXPECT_EQ(out.fault->kind, "unmodelled-register");
  EXPECT_NE(out.fault->detail.find("0x40004020"), std::string::npos) << out.fault->detail;
  EXPECT_FALSE(out.exited);
}

}  // namespace
}  // namespace fathom::sim
