#include "sim/timing/fetch_model.h"

#include <fmt/core.h>

namespace fathom::sim::timing {

FetchModel::FetchModel(const model::Board& board)
    : prefetch_(board.prefetch), icache_(board.icache) {
  tags_.fill(0);
  if (const model::MemoryRegion* flash = board.flash()) {
    flash_origin_ = flash->origin;
    flash_length_ = flash->length_bytes;
    wait_states_ = flash->wait_states;
  }
}

uint32_t FetchModel::fetch_slow(uint32_t address, uint32_t size_bytes, bool sequential) {
  if (address - flash_origin_ >= flash_length_) {
    last_word_ = UINT32_MAX;
    return 0;
  }
  uint32_t cycles = 0;
  const uint32_t last = (address + size_bytes - 1) >> 2;
  for (uint32_t word = address >> 2; word <= last; ++word) {
    if (word == last_word_) continue;
    const bool streamed = prefetch_ && (sequential || word != address >> 2);
    last_word_ = word;
    if (icache_) {
      const uint32_t line = (word * 4) / kLineBytes;
      uint32_t& tag = tags_[line % kLines];
      const bool hit = tag == line + 1;
      tag = line + 1;
      if (hit) continue;
    }
    if (!streamed) cycles += wait_states_;
  }
  return cycles;
}

std::string FetchModel::describe() const {
  return fmt::format("ws={} prefetch={} icache={}", wait_states_, prefetch_ ? "on" : "off",
                     icache_ ? "on" : "off");
}

}  // namespace fathom::sim::timing
