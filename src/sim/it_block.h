#pragma once
// The Thumb IT block: which of the up to four instructions after an IT execute, from the IT
// instruction's firstcond:mask byte and the APSR flags when it executes (Arm ARM v7-M A7.3.3,
// "ITSTATE"). The simulator needs it to charge an instruction that fails its condition: it
// does not execute, yet it still takes a cycle (sim/machine.cpp).
#include <cstdint>

namespace fathom::sim {

// True when condition `cond` (Arm encoding 0 = EQ … 14 = AL) holds for flags `nzcv`
// (bit 31 N, 30 Z, 29 C, 28 V, as in APSR).
constexpr bool condition_passed(uint8_t cond, uint32_t nzcv) {
  const bool n = nzcv >> 31 & 1, z = nzcv >> 30 & 1, c = nzcv >> 29 & 1, v = nzcv >> 28 & 1;
  bool result = false;
  switch (cond >> 1) {
    case 0: result = z; break;             // EQ / NE
    case 1: result = c; break;             // CS / CC
    case 2: result = n; break;             // MI / PL
    case 3: result = v; break;             // VS / VC
    case 4: result = c && !z; break;       // HI / LS
    case 5: result = n == v; break;        // GE / LT
    case 6: result = !z && n == v; break;  // GT / LE
    default: return true;                  // AL
  }
  return (cond & 1) ? !result : result;
}

class ItBlock {
 public:
  // An IT instruction with low byte `firstcond_mask` executed with flags `nzcv`.
  void start(uint8_t firstcond_mask, uint32_t nzcv) {
    state_ = firstcond_mask;
    nzcv_ = nzcv;
  }
  bool active() const { return (state_ & 0x0F) != 0; }
  // Whether the next instruction of the block executes; advances to the one after it.
  bool next_executes() {
    const bool pass = condition_passed(static_cast<uint8_t>(state_ >> 4), nzcv_);
    state_ = (state_ & 0x07) == 0 ? 0 : static_cast<uint8_t>((state_ & 0xE0) | ((state_ << 1) & 0x1F));
    return pass;
  }
  void clear() { state_ = 0; }
  // The flags changed inside the block (a flag-setting instruction between the IT and the
  // next instruction): the remaining conditions are decided from `nzcv`.
  void set_flags(uint32_t nzcv) { nzcv_ = nzcv; }

 private:
  uint8_t state_ = 0;
  uint32_t nzcv_ = 0;
};

}  // namespace fathom::sim
