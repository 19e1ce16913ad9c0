#pragma once
// An image run once on a fresh machine: created for `board` in `mode`, the image loaded, the
// observer (optional, not owned) attached, run to exit, fault or `cycle_budget`. A failure to
// create or load is a test failure (and an empty outcome).
#include <gtest/gtest.h>

#include <cstdint>

#include "elf/elf_image.h"
#include "sim/machine.h"

namespace fathom::testing {

inline sim::RunOutcome run_on_board(const elf::ElfImage& image, const model::Board& board,
                                    sim::HookMode mode, uint64_t cycle_budget = 100'000,
                                    sim::ExecutionObserver* observer = nullptr) {
  auto m = sim::Machine::create(board, mode);
  EXPECT_TRUE(m) << m.error().message;
  if (!m) return {};
  auto loaded = (*m)->load(image);
  EXPECT_TRUE(loaded) << loaded.error().message;
  if (!loaded) return {};
  if (observer) (*m)->set_observer(observer);
  return (*m)->run(cycle_budget);
}

}  // namespace fathom::testing
