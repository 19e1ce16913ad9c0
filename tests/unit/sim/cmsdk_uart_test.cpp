// The CMSDK APB UART register model (src/sim/cmsdk_uart.h).
#include "sim/cmsdk_uart.h"

#include <gtest/gtest.h>

namespace fathom::sim {
namespace {

TEST(CmsdkUart, DataWriteSendsItsLowByte) {
  CmsdkUart uart;
  const auto w = uart.write(CmsdkUart::kData, 0x1241u);
  EXPECT_TRUE(w.modelled);
  ASSERT_TRUE(w.sent.has_value());
  EXPECT_EQ(*w.sent, 'A');
  EXPECT_EQ(uart.read(CmsdkUart::kData), 0u) << "nothing is ever received";
}

TEST(CmsdkUart, TransmitterIsNeverFullAndControlRegistersKeepTheirValues) {
  CmsdkUart uart;
  EXPECT_EQ(uart.read(CmsdkUart::kState), 0u);
  EXPECT_EQ(uart.read(CmsdkUart::kCtrl), 0u);
  EXPECT_EQ(uart.read(CmsdkUart::kBaudDiv), 0u);
  for (uint32_t offset : {CmsdkUart::kCtrl, CmsdkUart::kBaudDiv, CmsdkUart::kState,
                          CmsdkUart::kIntStatus}) {
    const auto w = uart.write(offset, offset == CmsdkUart::kCtrl ? 1u : 16u);
    EXPECT_TRUE(w.modelled) << offset;
    EXPECT_FALSE(w.sent.has_value()) << offset;
  }
  EXPECT_EQ(uart.read(CmsdkUart::kCtrl), 1u);
  EXPECT_EQ(uart.read(CmsdkUart::kBaudDiv), 16u);
  EXPECT_EQ(uart.read(CmsdkUart::kState), 0u) << "a STATE write clears flags, it sets none";
  EXPECT_EQ(uart.read(CmsdkUart::kIntStatus), 0u);
}

TEST(CmsdkUart, OtherOffsetsAreNoRegisters) {
  CmsdkUart uart;
  for (uint32_t offset : {0x14u, 0x20u, 0xFD0u, 0x2u}) {
    EXPECT_FALSE(uart.read(offset).has_value()) << offset;
    EXPECT_FALSE(uart.write(offset, 1).modelled) << offset;
  }
}

}  // namespace
}  // namespace fathom::sim
