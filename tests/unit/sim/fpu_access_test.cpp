// A floating-point instruction while CPACR denies CP10/CP11 (sim::SystemControl::
// fpu_access_enabled) stops the run with a "nocp-usagefault" naming the instruction's address
// and function and saying how to enable the FPU, as silicon takes a NOCP UsageFault there, in
// every hook mode. The fixture (tests/fixtures/firmware/sim_fixture.c, mode 11) clears the
// CPACR fields its start-up code set; every other mode's FP code runs with them set.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "elf/elf_image.h"
#include "model/board.h"
#include "sim/machine.h"
#include "fixture_board.h"
#include "../test_paths.h"

namespace fathom::sim {
namespace {

constexpr uint32_t kFpuWithoutCpacr = 11;  // fixture_mode
constexpr uint32_t kFpuWithCpacr = 12;

class FpuAccess : public ::testing::TestWithParam<HookMode> {
 protected:
  void SetUp() override {
    const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
    if (dir.empty())
      GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time; no test firmware";
    auto img = elf::ElfImage::load(dir + "/sim_fixture.elf");
    ASSERT_TRUE(img) << img.error().message;
    image_ = std::make_unique<elf::ElfImage>(std::move(*img));
  }

  RunOutcome run(uint32_t mode) {
    auto m = Machine::create(fathom::testing::fixture_board(), GetParam());
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return {};
    auto loaded = (*m)->load(*image_);
    EXPECT_TRUE(loaded) << loaded.error().message;
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    EXPECT_NE(s, nullptr);
    if (!s) return {};
    auto written = (*m)->write_memory(s->address, {static_cast<uint8_t>(mode), 0, 0, 0});
    EXPECT_TRUE(written) << written.error().message;
    return (*m)->run(5'000'000);
  }

  std::unique_ptr<elf::ElfImage> image_;
};

TEST_P(FpuAccess, AnFpInstructionWithoutCp10Cp11IsAUsageFault) {
  const RunOutcome out = run(kFpuWithoutCpacr);
  ASSERT_TRUE(out.fault) << "the FP instruction ran; exit " << out.exit_code;
  EXPECT_EQ(out.fault->kind, "nocp-usagefault") << out.fault->detail;
  const elf::Symbol* at = image_->function_at(out.fault->pc);
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->name, "fpu_without_cpacr");
  EXPECT_NE(out.fault->function.find("fpu_without_cpacr"), std::string::npos)
      << out.fault->function;
  const std::string& why = out.fault->detail;
  char address[16];
  std::snprintf(address, sizeof address, "0x%08x", out.fault->pc);
  EXPECT_NE(why.find(std::string("floating-point instruction at ") + address), std::string::npos)
      << why;
  EXPECT_NE(why.find("CPACR (0x00000000)"), std::string::npos) << why;
  EXPECT_NE(why.find("Enable full access to CP10 and CP11"), std::string::npos) << why;
  EXPECT_NE(why.find("before the first floating-point instruction"), std::string::npos) << why;
}

TEST_P(FpuAccess, WithCp10Cp11EnabledTheImageRuns) {
  const RunOutcome out = run(kFpuWithCpacr);  // the start-up code set CPACR
  ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
  EXPECT_EQ(out.exit_code, 12);  // 1.0f + 1.0f == 2.0f
}

INSTANTIATE_TEST_SUITE_P(HookModes, FpuAccess,
                         ::testing::Values(HookMode::kBlock, HookMode::kPerInstruction,
                                           HookMode::kBlockCountOnly));

}  // namespace
}  // namespace fathom::sim
