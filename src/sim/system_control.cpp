#include "sim/system_control.h"

namespace fathom::sim {
namespace {
// Register addresses: ARMv7-M Architecture Reference Manual (DDI 0403E), B3.2 (SCB),
// C1.6 (DEMCR), C1.8 (DWT). ARMv8-M keeps the same addresses.
constexpr uint32_t kCpuid = 0xE000ED00u;
constexpr uint32_t kVtor = 0xE000ED08u;
constexpr uint32_t kCpacr = 0xE000ED88u;
constexpr uint32_t kDemcr = 0xE000EDFCu;
constexpr uint32_t kDwtCtrl = 0xE0001000u;
constexpr uint32_t kDwtCyccnt = SystemControl::kCycleCounterAddress;
constexpr uint32_t kDwtLar = 0xE0001FB0u;  // lock access (Cortex-M7); writes accepted
constexpr uint32_t kDemcrTrcena = 1u << 24;
constexpr uint32_t kDwtCyccntena = 1u << 0;
// DWT_CTRL.NUMCOMP = 4 comparators, no NOCYCCNT: the cycle counter is implemented.
constexpr uint32_t kDwtCtrlReadOnly = 4u << 28;
}  // namespace

bool SystemControl::cycle_counter_running() const {
  return (demcr_ & kDemcrTrcena) && (dwt_ctrl_ & kDwtCyccntena);
}

bool SystemControl::fpu_access_enabled() const {
  const uint32_t cp10 = (cpacr_ >> 20) & 0x3u, cp11 = (cpacr_ >> 22) & 0x3u;
  const auto grants = [](uint32_t field) { return field == 0x1u || field == 0x3u; };
  return grants(cp10) && grants(cp11);
}

uint32_t SystemControl::cyccnt_at(uint64_t now_cycles) const {
  if (!cycle_counter_running()) return cyccnt_value_;
  return cyccnt_value_ + static_cast<uint32_t>(now_cycles - cyccnt_since_);
}

std::optional<uint32_t> SystemControl::read(uint32_t address, uint64_t now_cycles) const {
  switch (address) {
    case kCpuid: return cpuid_;
    case kVtor: return vtor_;
    case kCpacr: return cpacr_;
    case kDemcr: return demcr_;
    case kDwtCtrl: return dwt_ctrl_ | kDwtCtrlReadOnly;
    case kDwtCyccnt: return cyccnt_at(now_cycles);
    default: return std::nullopt;
  }
}

bool SystemControl::write(uint32_t address, uint32_t value, uint64_t now_cycles) {
  // Freeze or restart the counter around any change that affects it.
  const uint32_t current = cyccnt_at(now_cycles);
  switch (address) {
    case kVtor: vtor_ = value & ~0x7Fu; return true;
    case kCpacr: cpacr_ = value; return true;
    case kDwtLar: return true;
    case kDemcr: demcr_ = value; break;
    case kDwtCtrl: dwt_ctrl_ = value & 0x0FFFFFFFu; break;
    case kDwtCyccnt:
      cyccnt_value_ = value;
      cyccnt_since_ = now_cycles;
      return true;
    default: return false;
  }
  cyccnt_value_ = current;
  cyccnt_since_ = now_cycles;
  return true;
}

}  // namespace fathom::sim
