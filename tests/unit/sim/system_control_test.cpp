// DEMCR/DWT cycle counter semantics of sim::SystemControl (ARMv7-M ARM C1.6.5, C1.8.7, C1.8.8):
// CYCCNT counts only while DEMCR.TRCENA and DWT_CTRL.CYCCNTENA are both set, holds its value
// otherwise, and a write sets it.
#include "sim/system_control.h"

#include <gtest/gtest.h>

namespace fathom::sim {
namespace {

constexpr uint32_t kCpuid = 0xE000ED00u;
constexpr uint32_t kVtor = 0xE000ED08u;
constexpr uint32_t kCpacr = 0xE000ED88u;
constexpr uint32_t kDemcr = 0xE000EDFCu;
constexpr uint32_t kDwtCtrl = 0xE0001000u;
constexpr uint32_t kDwtCyccnt = 0xE0001004u;
constexpr uint32_t kDwtLar = 0xE0001FB0u;
constexpr uint32_t kTrcena = 1u << 24;
constexpr uint32_t kCyccntena = 1u << 0;
constexpr uint32_t kM33Cpuid = 0x410FD214u;

uint32_t cyccnt(const SystemControl& scs, uint64_t now) {
  auto v = scs.read(kDwtCyccnt, now);
  EXPECT_TRUE(v.has_value());
  return v.value_or(0xBAD);
}

// A system control space with the counter enabled the way the firmware does it
// (firmware/boards/common/sim_console.c) at model cycle `at`.
SystemControl enabled_at(uint64_t at) {
  SystemControl scs(kM33Cpuid);
  EXPECT_TRUE(scs.write(kDemcr, kTrcena, at));
  EXPECT_TRUE(scs.write(kDwtCyccnt, 0, at));
  EXPECT_TRUE(scs.write(kDwtCtrl, kCyccntena, at));
  return scs;
}

TEST(SystemControl, CpuidIsTheConstructorValue) {
  SystemControl scs(kM33Cpuid);
  EXPECT_EQ(scs.read(kCpuid, 0), kM33Cpuid);
}

TEST(SystemControl, CounterIsStoppedAtReset) {
  SystemControl scs(kM33Cpuid);
  EXPECT_FALSE(scs.cycle_counter_running());
  EXPECT_EQ(cyccnt(scs, 0), 0u);
  EXPECT_EQ(cyccnt(scs, 1000), 0u);
}

TEST(SystemControl, CounterNeedsBothTrcenaAndCyccntena) {
  SystemControl only_dwt(kM33Cpuid);
  ASSERT_TRUE(only_dwt.write(kDwtCtrl, kCyccntena, 10));
  EXPECT_FALSE(only_dwt.cycle_counter_running());
  EXPECT_EQ(cyccnt(only_dwt, 500), 0u);

  SystemControl only_demcr(kM33Cpuid);
  ASSERT_TRUE(only_demcr.write(kDemcr, kTrcena, 10));
  EXPECT_FALSE(only_demcr.cycle_counter_running());
  EXPECT_EQ(cyccnt(only_demcr, 500), 0u);

  // Enabling in the other order works too.
  ASSERT_TRUE(only_dwt.write(kDemcr, kTrcena, 600));
  EXPECT_TRUE(only_dwt.cycle_counter_running());
  EXPECT_EQ(cyccnt(only_dwt, 650), 50u);
}

TEST(SystemControl, CounterCountsModelCyclesSinceEnable) {
  SystemControl scs = enabled_at(40);
  EXPECT_TRUE(scs.cycle_counter_running());
  EXPECT_EQ(cyccnt(scs, 40), 0u);
  EXPECT_EQ(cyccnt(scs, 100), 60u);
  EXPECT_EQ(cyccnt(scs, 1'000'040), 1'000'000u);
}

TEST(SystemControl, CounterIsFrozenWhileDisabledAndResumes) {
  SystemControl scs = enabled_at(0);
  ASSERT_TRUE(scs.write(kDwtCtrl, 0, 150));  // clear CYCCNTENA
  EXPECT_FALSE(scs.cycle_counter_running());
  EXPECT_EQ(cyccnt(scs, 150), 150u);
  EXPECT_EQ(cyccnt(scs, 10'000), 150u);
  ASSERT_TRUE(scs.write(kDwtCtrl, kCyccntena, 20'000));
  EXPECT_EQ(cyccnt(scs, 20'010), 160u);

  // Clearing TRCENA stops the counter as well.
  ASSERT_TRUE(scs.write(kDemcr, 0, 20'100));
  EXPECT_EQ(cyccnt(scs, 30'000), 250u);
  ASSERT_TRUE(scs.write(kDemcr, kTrcena, 40'000));
  EXPECT_EQ(cyccnt(scs, 40'001), 251u);
}

TEST(SystemControl, WriteToCyccntSetsTheCounter) {
  SystemControl scs = enabled_at(0);
  ASSERT_TRUE(scs.write(kDwtCyccnt, 0, 500));
  EXPECT_EQ(cyccnt(scs, 520), 20u);
  ASSERT_TRUE(scs.write(kDwtCyccnt, 1000, 600));
  EXPECT_EQ(cyccnt(scs, 601), 1001u);

  // Written while stopped: holds the written value until enabled.
  ASSERT_TRUE(scs.write(kDwtCtrl, 0, 700));
  ASSERT_TRUE(scs.write(kDwtCyccnt, 7, 710));
  EXPECT_EQ(cyccnt(scs, 5'000), 7u);
  ASSERT_TRUE(scs.write(kDwtCtrl, kCyccntena, 6'000));
  EXPECT_EQ(cyccnt(scs, 6'003), 10u);
}

TEST(SystemControl, CounterWrapsAt32Bits) {
  SystemControl scs = enabled_at(0);
  ASSERT_TRUE(scs.write(kDwtCyccnt, 0xFFFFFFF0u, 100));
  EXPECT_EQ(cyccnt(scs, 100 + 0x20), 0x10u);
  EXPECT_EQ(cyccnt(scs, 100 + (uint64_t{1} << 32)), 0xFFFFFFF0u);
}

TEST(SystemControl, DwtCtrlReportsComparatorsAndACycleCounter) {
  SystemControl scs = enabled_at(0);
  auto ctrl = scs.read(kDwtCtrl, 0);
  ASSERT_TRUE(ctrl.has_value());
  EXPECT_EQ(*ctrl & kCyccntena, kCyccntena);
  EXPECT_EQ(*ctrl & (1u << 25), 0u) << "NOCYCCNT must be clear: the counter exists";
  EXPECT_EQ(*ctrl >> 28, 4u) << "NUMCOMP";
  // NUMCOMP is read-only.
  ASSERT_TRUE(scs.write(kDwtCtrl, 0xF0000000u | kCyccntena, 1));
  EXPECT_EQ(*scs.read(kDwtCtrl, 1) >> 28, 4u);
}

TEST(SystemControl, DemcrVtorCpacrReadBack) {
  SystemControl scs(kM33Cpuid);
  ASSERT_TRUE(scs.write(kDemcr, kTrcena, 0));
  EXPECT_EQ(scs.read(kDemcr, 0), kTrcena);
  ASSERT_TRUE(scs.write(kVtor, 0x0001'00FFu, 0));
  EXPECT_EQ(scs.read(kVtor, 0), 0x0001'0080u) << "VTOR bits [6:0] are reserved";
  ASSERT_TRUE(scs.write(kCpacr, 0xFu << 20, 0));
  EXPECT_EQ(scs.read(kCpacr, 0), 0xFu << 20);
  EXPECT_TRUE(scs.write(kDwtLar, 0xC5ACCE55u, 0));
}

TEST(SystemControl, UnmodelledRegistersAreRefused) {
  SystemControl scs(kM33Cpuid);
  for (uint32_t address : {0xE000E010u /* SysTick CTRL */, 0xE000ED0Cu /* AIRCR */,
                           0xE000E100u /* NVIC ISER0 */, 0xE0001008u /* DWT_CPICNT */,
                           0xE0002000u /* FPB */, kDwtCyccnt + 1 /* misaligned */}) {
    SCOPED_TRACE(address);
    EXPECT_FALSE(scs.read(address, 0).has_value());
    EXPECT_FALSE(scs.write(address, 1, 0));
  }
  // A refused write changes nothing.
  EXPECT_FALSE(scs.cycle_counter_running());
  EXPECT_EQ(cyccnt(scs, 100), 0u);
}

// CP10/CP11 access (ARMv7-M ARM B3.2.20): none out of reset; both fields must grant it
// (0b01 privileged, 0b11 full); 0b10 is reserved and grants nothing.
TEST(SystemControl, FpuAccessNeedsCp10AndCp11) {
  SystemControl scs(kM33Cpuid);
  EXPECT_FALSE(scs.fpu_access_enabled());
  ASSERT_TRUE(scs.write(kCpacr, 0xFu << 20, 0));  // what the start-up code writes
  EXPECT_TRUE(scs.fpu_access_enabled());
  EXPECT_EQ(scs.cpacr(), 0xFu << 20);
  ASSERT_TRUE(scs.write(kCpacr, 0x5u << 20, 0));  // privileged access to both
  EXPECT_TRUE(scs.fpu_access_enabled());
  ASSERT_TRUE(scs.write(kCpacr, 0x3u << 20, 0));  // CP10 only
  EXPECT_FALSE(scs.fpu_access_enabled());
  ASSERT_TRUE(scs.write(kCpacr, 0xAu << 20, 0));  // reserved encoding
  EXPECT_FALSE(scs.fpu_access_enabled());
  ASSERT_TRUE(scs.write(kCpacr, 0, 0));
  EXPECT_FALSE(scs.fpu_access_enabled());
}

}  // namespace
}  // namespace fathom::sim
