#pragma once
// Read-only views of a Profile that the exporters share: the call trace checked for nesting and
// the call tree's unique stacks. Both are safe on malformed input (frame or node indices out of
// range, a Leave without its Enter, child links that loop), so every writer can promise output
// that its viewer accepts whatever the profile holds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "profile/profile.h"

namespace fathom::profile {

// The name to print for frame `index` of `set`: "???" when the index is out of range or the
// name is empty.
std::string frame_name(const ProfileSet& set, uint32_t index);

// `profile.events` made strictly nested: `at_cycles` clamped so it never decreases, a frame index
// >= `frame_count` replaced by `frame_count` (one past the end: "unknown frame"), a Leave that
// matches an open frame below the top first closes the frames above it, a Leave matching no open
// frame dropped, and frames still open at the end closed at the last time seen. A well-formed
// trace comes back unchanged.
std::vector<TraceEvent> checked_trace(const Profile& profile, size_t frame_count);

// Why `profile`'s call trace cannot stand for the whole profile, or "" when it can: the trace
// then covers every cycle of the profile call by call, and each frame's self and total time in
// it equal the call tree's (profile/function_summary.h). Otherwise exporters lay out the call
// tree (exact per call path, without time order) and say why in the profile's name:
//   "no call trace", "the call trace would exceed N events", "the call trace covers 1 of N
//   executions", "inlined functions are not in the call trace" (the trace records calls; the
//   tree has DWARF's inlined frames), "the call trace does not end at the profile's total".
std::string trace_gap(const ProfileSet& set, const Profile& profile);

// One path of the call tree with its self cost.
struct CallStack {
  std::vector<uint32_t> frames;  // frame indices root→leaf (>= frame_count: unknown frame)
  uint64_t exclusive_cycles = 0;
  uint64_t exclusive_instructions = 0;
};

// The stacks of `profile`'s call tree whose node has non-zero exclusive cycles, one entry per
// unique frame path (nodes with the same path are summed), in depth-first pre-order from
// nodes[0]. Child links out of range or back to a node already visited are ignored. Frame
// indices >= `frame_count` become `frame_count`.
std::vector<CallStack> exclusive_stacks(const Profile& profile, size_t frame_count);

// Depth-first pre-order walk of `profile`'s call tree from nodes[0], calling `visit(node_index,
// depth)` once per reachable node (depth 0 = root), children in stored order. Links out of range
// or to a node already visited are skipped, so the walk always ends.
template <typename Visit>
void walk_call_tree(const Profile& profile, Visit&& visit);

}  // namespace fathom::profile

// ---- implementation of the template ----
namespace fathom::profile {

template <typename Visit>
void walk_call_tree(const Profile& profile, Visit&& visit) {
  if (profile.nodes.empty()) return;
  std::vector<bool> seen(profile.nodes.size(), false);
  struct Pending {
    uint32_t node;
    uint32_t depth;
  };
  std::vector<Pending> pending{{0, 0}};
  seen[0] = true;
  while (!pending.empty()) {
    const Pending current = pending.back();
    pending.pop_back();
    visit(current.node, current.depth);
    const auto& children = profile.nodes[current.node].children;
    // Pushed in reverse so that children are visited in stored order.
    for (auto it = children.rbegin(); it != children.rend(); ++it) {
      if (*it >= profile.nodes.size() || seen[*it]) continue;
      seen[*it] = true;
      pending.push_back({*it, current.depth + 1});
    }
  }
}

}  // namespace fathom::profile
