#pragma once
// The parts of the Private Peripheral Bus the harness touches, which Unicorn does not model:
// DEMCR, the DWT cycle counter, and the SCB registers used at start-up (CPUID, VTOR, CPACR).
// Any other access is reported as an unmodelled-register fault instead of returning a made-up
// value.
#include <cstdint>
#include <optional>
#include <string>

namespace fathom::sim {

class SystemControl {
 public:
  static constexpr uint32_t kBase = 0xE0000000u;  // PPB
  static constexpr uint32_t kSize = 0x00100000u;
  static constexpr uint32_t kCycleCounterAddress = 0xE0001004u;  // DWT_CYCCNT

  // `vtor_reset`: VTOR's value out of reset, the address the core boots from (the board's
  // flash origin: the simulator takes the initial SP and reset vector from there).
  explicit SystemControl(uint32_t cpuid, uint32_t vtor_reset = 0)
      : cpuid_(cpuid), vtor_(vtor_reset & ~0x7Fu) {}

  // `now_cycles` is the timing model's count at the accessing instruction.
  // Returns nullopt for an unmodelled register.
  std::optional<uint32_t> read(uint32_t address, uint64_t now_cycles) const;
  bool write(uint32_t address, uint32_t value, uint64_t now_cycles);

  bool cycle_counter_running() const;

  // CYCCNT at model cycle `now_cycles`, and setting it without changing whether it runs (an
  // isolation restore keeps the counter going: sim::Machine, docs/SIMULATOR.md).
  uint32_t cycle_counter_at(uint64_t now_cycles) const { return cyccnt_at(now_cycles); }
  void continue_cycle_counter(uint32_t value, uint64_t now_cycles) {
    cyccnt_value_ = value;
    cyccnt_since_ = now_cycles;
  }

  // CPACR grants the running (privileged) code access to CP10 and CP11, the floating-point
  // unit: both fields 0b01 (privileged) or 0b11 (full). Out of reset it does not (CPACR = 0):
  // an FP instruction then takes a NOCP UsageFault on silicon (ARMv7-M ARM B3.2.20, ARMv8-M
  // ARM D1.2.8). Unicorn 2.0.1 runs FP instructions whatever the CPACR holds and offers no
  // register to set its own, so the machine checks this before a block with an FP instruction.
  bool fpu_access_enabled() const;
  uint32_t cpacr() const { return cpacr_; }

  // SCB->VTOR: where the core reads exception vectors (entry N at VTOR + 4 * N).
  uint32_t vector_table_address() const { return vtor_; }

 private:
  uint32_t cyccnt_at(uint64_t now_cycles) const;

  uint32_t cpuid_;
  uint32_t demcr_ = 0;
  uint32_t dwt_ctrl_ = 0;
  uint32_t vtor_ = 0;
  uint32_t cpacr_ = 0;
  uint32_t cyccnt_value_ = 0;    // CYCCNT at `cyccnt_since_`
  uint64_t cyccnt_since_ = 0;    // model cycle count when the counter last started or was set
};

}  // namespace fathom::sim
