#include "profile/export/profile_views.h"

#include <fmt/core.h>

#include <algorithm>
#include <map>

namespace fathom::profile {

std::string frame_name(const ProfileSet& set, uint32_t index) {
  if (index >= set.frames.size() || set.frames[index].name.empty()) return "???";
  return set.frames[index].name;
}

std::vector<TraceEvent> checked_trace(const Profile& profile, size_t frame_count) {
  const auto unknown = static_cast<uint32_t>(frame_count);
  std::vector<TraceEvent> out;
  out.reserve(profile.events.size());
  std::vector<uint32_t> open;  // frames entered and not yet left, outermost first
  uint64_t now = 0;
  uint32_t stack_bytes = 0;
  for (const TraceEvent& event : profile.events) {
    now = std::max(now, event.at_cycles);
    stack_bytes = event.stack_bytes;
    const uint32_t frame = event.frame < frame_count ? event.frame : unknown;
    if (event.kind == TraceEvent::Kind::kEnter) {
      open.push_back(frame);
      out.push_back({TraceEvent::Kind::kEnter, frame, now, stack_bytes});
      continue;
    }
    const auto match = std::find(open.rbegin(), open.rend(), frame);
    if (match == open.rend()) continue;  // a Leave of nothing open: dropped
    const size_t keep = static_cast<size_t>(open.rend() - match) - 1;
    while (open.size() > keep) {
      out.push_back({TraceEvent::Kind::kLeave, open.back(), now, stack_bytes});
      open.pop_back();
    }
  }
  while (!open.empty()) {
    out.push_back({TraceEvent::Kind::kLeave, open.back(), now, stack_bytes});
    open.pop_back();
  }
  return out;
}

std::string trace_gap(const ProfileSet& set, const Profile& profile) {
  if (profile.trace_truncated)
    return fmt::format("the call trace would exceed {} events", profile.trace_event_limit);
  if (profile.events.empty()) return "no call trace";
  if (profile.execution_cycles.size() > 1)
    return fmt::format("the call trace covers 1 of {} executions", profile.execution_cycles.size());
  for (const CallNode& node : profile.nodes)
    if (node.frame < set.frames.size() && set.frames[node.frame].inlined)
      return "inlined functions are not in the call trace";
  const std::vector<TraceEvent> trace = checked_trace(profile, set.frames.size());
  if (trace.front().at_cycles != 0 || trace.back().at_cycles != profile.total_cycles)
    return "the call trace does not end at the profile's total";
  return "";
}

std::vector<CallStack> exclusive_stacks(const Profile& profile, size_t frame_count) {
  const auto unknown = static_cast<uint32_t>(frame_count);
  std::vector<CallStack> stacks;
  std::map<std::vector<uint32_t>, size_t> index_of;  // path -> position in `stacks`
  std::vector<uint32_t> path;
  walk_call_tree(profile, [&](uint32_t node_index, uint32_t depth) {
    const CallNode& node = profile.nodes[node_index];
    path.resize(depth);
    path.push_back(node.frame < frame_count ? node.frame : unknown);
    if (node.exclusive_cycles == 0) return;
    auto [it, inserted] = index_of.try_emplace(path, stacks.size());
    if (inserted) stacks.push_back({path, 0, 0});
    stacks[it->second].exclusive_cycles += node.exclusive_cycles;
    stacks[it->second].exclusive_instructions += node.exclusive_instructions;
  });
  return stacks;
}

}  // namespace fathom::profile
