#pragma once
// Per-function costs of one profile, from its call tree: what `fathom profile` prints and its
// `json` format writes, and what every exported file must imply for each function.
//   - exclusive: the sum of the function's nodes' exclusive costs (its own instructions);
//   - inclusive: the sum of the inclusive costs of its nodes that have no ancestor of the same
//     frame, i.e. the cycles during which the function is on the call path at least once, so
//     recursion is not counted twice (what speedscope and Perfetto show as a frame's total);
//   - calls: the sum of its nodes' calls (0 for an inlined function).
// One row per frame (two frames of one name stay two rows), sorted by inclusive cycles
// (largest first), then frame index.
#include <cstdint>
#include <vector>

#include "profile/profile.h"

namespace fathom::profile {

struct FunctionCosts {
  uint32_t frame = 0;  // index into ProfileSet::frames
  uint64_t calls = 0;
  uint64_t inclusive_cycles = 0;
  uint64_t exclusive_cycles = 0;
  uint64_t inclusive_instructions = 0;
  uint64_t exclusive_instructions = 0;
};

std::vector<FunctionCosts> function_costs(const Profile& profile);

}  // namespace fathom::profile
