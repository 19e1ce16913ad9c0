#include "sim/cmsdk_uart.h"

namespace fathom::sim {

std::optional<uint32_t> CmsdkUart::read(uint32_t offset) const {
  switch (offset) {
    case kData:
    case kState:
    case kIntStatus: return 0u;
    case kCtrl: return ctrl_;
    case kBaudDiv: return baud_div_;
    default: return std::nullopt;
  }
}

CmsdkUart::WriteResult CmsdkUart::write(uint32_t offset, uint32_t value) {
  switch (offset) {
    case kData: return {true, static_cast<char>(value & 0xFFu)};
    case kState:
    case kIntStatus: return {true, std::nullopt};
    case kCtrl: ctrl_ = value; return {true, std::nullopt};
    case kBaudDiv: baud_div_ = value; return {true, std::nullopt};
    default: return {false, std::nullopt};
  }
}

}  // namespace fathom::sim
