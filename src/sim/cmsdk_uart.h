#pragma once
// The transmit side of an Arm CMSDK APB UART (Cortex-M System Design Kit TRM, DDI 0479, "APB
// UART"), as the console of boards with `console = "cmsdk-uart"` (QEMU's MPS2 machines): the
// simulator maps it at the board's console_address so that a QEMU board's image runs unchanged.
//
// DATA (+0x0): a write sends its low byte; reads 0 (nothing is ever received). STATE (+0x4):
// reads 0, the transmitter is never full; writes (which clear overrun flags) are accepted.
// CTRL (+0x8) and BAUDDIV (+0x10) keep what is written. INTSTATUS (+0xC) reads 0; writes
// (write-one-to-clear) are accepted. Every other offset is not a register of the model. There
// is no EXIT register: these boards stop through semihosting.
#include <cstdint>
#include <optional>

namespace fathom::sim {

class CmsdkUart {
 public:
  static constexpr uint32_t kData = 0x00;
  static constexpr uint32_t kState = 0x04;
  static constexpr uint32_t kCtrl = 0x08;
  static constexpr uint32_t kIntStatus = 0x0C;
  static constexpr uint32_t kBaudDiv = 0x10;

  struct WriteResult {
    bool modelled = false;     // false: `offset` is not a register of the model
    std::optional<char> sent;  // the byte a DATA write transmits
  };

  // The value a read at `offset` returns, or nullopt when the model has no register there.
  std::optional<uint32_t> read(uint32_t offset) const;
  WriteResult write(uint32_t offset, uint32_t value);

 private:
  uint32_t ctrl_ = 0;
  uint32_t baud_div_ = 0;
};

}  // namespace fathom::sim
