#pragma once
// Instruction-fetch and literal-load wait states of the board's flash (docs/TIMING.md,
// "Memory system"). The core tables assume zero wait states; this adds what the flash costs on
// top, from the board description:
//  - code outside the flash region (in RAM) never waits;
//  - with `prefetch` on, the prefetch buffer streams sequential code, so only a fetch after a
//    change of flow waits (a simplification: silicon also stalls on straight-line code when
//    the instructions of one fetch line run faster than the flash delivers the next one);
//  - with `prefetch` off, every 32-bit fetch word waits;
//  - with `icache` on, a 1 KiB direct-mapped cache of 16-byte lines (the size of the STM32F4
//    ART accelerator's instruction cache) turns repeated fetches into hits that do not wait;
//  - a PC-relative (literal) load from code in flash pays the wait states once.
// With zero wait states every call returns 0 after one comparison.
#include <array>
#include <cstdint>
#include <string>

#include "model/board.h"

namespace fathom::sim::timing {

class FetchModel {
 public:
  explicit FetchModel(const model::Board& board);

  // Wait cycles to fetch the instruction of `size_bytes` at `address`; `sequential` is false
  // after a change of flow.
  uint32_t fetch_cycles(uint32_t address, uint32_t size_bytes, bool sequential) {
    if (wait_states_ == 0) return 0;
    return fetch_slow(address, size_bytes, sequential);
  }

  // Wait cycles of a literal load by the instruction at `address` (the pool sits beside it).
  uint32_t literal_cycles(uint32_t address) const {
    return (wait_states_ != 0 && address - flash_origin_ < flash_length_) ? wait_states_ : 0;
  }

  // State snapshots (timing::CoreTimingModel::State). Without an instruction cache (or
  // without wait states) the only state is the fetch word the core holds.
  bool has_compact_state() const { return !(icache_ && wait_states_ != 0); }
  uint32_t held_word() const { return last_word_; }
  void set_held_word(uint32_t word) { last_word_ = word; }
  // Whether the fetch of an instruction at `address` may find its first word already held: the
  // one bit of the held word that matters for the instructions from `address` on.
  bool holds_word_of(uint32_t address) const {
    return wait_states_ != 0 && last_word_ == address >> 2;
  }

  // "ws=0 prefetch=on icache=off", for the model's name.
  std::string describe() const;

 private:
  uint32_t fetch_slow(uint32_t address, uint32_t size_bytes, bool sequential);

  static constexpr uint32_t kLineBytes = 16;
  static constexpr uint32_t kLines = 64;
  uint32_t flash_origin_ = 0;
  uint32_t flash_length_ = 0;
  uint32_t wait_states_ = 0;
  bool prefetch_ = true;
  bool icache_ = false;
  uint32_t last_word_ = UINT32_MAX;  // 32-bit fetch word the core holds
  std::array<uint32_t, kLines> tags_;  // line address + 1 per cache line, 0 = empty
};

}  // namespace fathom::sim::timing
