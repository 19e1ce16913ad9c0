#include "profile/primitive_share.h"

#include <algorithm>

#include "elf/harness_operations.h"
#include "util/glob.h"

namespace fathom::profile {
namespace {

// The profile's nodes ordered so that every parent comes before its children (a hand-built or
// damaged tree need not keep parents at lower indices), with each node's parent in `parent`; a
// parent chain that loops is cut where it closes, and the node there counts as a root.
std::vector<size_t> parents_first(const Profile& profile, std::vector<int64_t>& parent) {
  const std::vector<CallNode>& nodes = profile.nodes;
  const size_t n = nodes.size();
  auto parent_of = [&](size_t i) -> int64_t {
    const int32_t p = nodes[i].parent;
    return p >= 0 && static_cast<size_t>(p) < n && static_cast<size_t>(p) != i ? p : -1;
  };
  std::vector<size_t> order;
  parent.assign(n, -1);
  order.reserve(n);
  {
    std::vector<uint8_t> state(n, 0);  // 0 new, 1 on the current chain, 2 placed
    std::vector<size_t> chain;
    for (size_t i = 0; i < n; ++i) {
      int64_t c = static_cast<int64_t>(i);
      while (c >= 0 && state[static_cast<size_t>(c)] == 0) {
        state[static_cast<size_t>(c)] = 1;
        chain.push_back(static_cast<size_t>(c));
        c = parent_of(static_cast<size_t>(c));
      }
      // `c` is -1, placed (2), or on the chain (1: the loop closes there).
      int64_t above = c >= 0 && state[static_cast<size_t>(c)] == 2 ? c : -1;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        state[*it] = 2;
        parent[*it] = above;
        order.push_back(*it);
        above = static_cast<int64_t>(*it);
      }
      chain.clear();
    }
  }
  return order;
}

// For each node: whether its frame is one of `patterns`' functions.
std::vector<uint8_t> frames_in_group(const Profile& profile,
                                     const std::vector<std::string>& frame_names,
                                     const std::vector<std::string>& patterns) {
  std::vector<uint8_t> in_group(profile.nodes.size());
  for (size_t i = 0; i < profile.nodes.size(); ++i) {
    const uint32_t f = profile.nodes[i].frame;
    const std::string_view name = f < frame_names.size() ? frame_names[f] : std::string_view{};
    in_group[i] = std::any_of(patterns.begin(), patterns.end(),
                              [&](const std::string& p) { return function_matches(p, name); });
  }
  return in_group;
}

// Calls `outermost(i)` for each node of a group frame with no group frame above it.
template <typename F>
void for_outermost(const std::vector<size_t>& order, const std::vector<int64_t>& parent,
                   const std::vector<uint8_t>& in_group, F outermost) {
  std::vector<uint8_t> under(order.size());  // a group frame on the path to the node
  for (const size_t i : order) {
    const bool parent_under = parent[i] >= 0 && under[static_cast<size_t>(parent[i])] != 0;
    under[i] = parent_under || in_group[i];
    if (in_group[i] && !parent_under) outermost(i);
  }
}

}  // namespace

bool function_matches(std::string_view pattern, std::string_view name) {
  if (name.empty()) return false;
  if (util::glob_match(pattern, name)) return true;
  // GCC names the clones it makes of a function "<name>.<kind>.<n>" (ipa-split, ipa-sra,
  // ipa-cp) or "<name>.cold": they are still that function.
  const size_t dot = name.find('.');
  return dot != std::string_view::npos && dot > 0 && util::glob_match(pattern, name.substr(0, dot));
}

namespace {

// For each group, the sum of `field` over the group's outermost nodes (the outermost group frame
// on a path carries every cycle below it exactly once, and its calls are the entries from
// outside the group).
std::map<std::string, uint64_t> sum_outermost(const Profile& profile,
                                              const std::vector<std::string>& frame_names,
                                              const PrimitiveGroups& groups,
                                              uint64_t CallNode::*field) {
  std::map<std::string, uint64_t> out;
  std::vector<int64_t> parent;
  const std::vector<size_t> order = parents_first(profile, parent);
  for (const auto& [group, patterns] : groups) {
    uint64_t sum = 0;
    for_outermost(order, parent, frames_in_group(profile, frame_names, patterns),
                  [&](size_t i) { sum += profile.nodes[i].*field; });
    out[group] = sum;
  }
  return out;
}

}  // namespace

std::map<std::string, uint64_t> primitive_cycles(const Profile& profile,
                                                 const std::vector<std::string>& frame_names,
                                                 const PrimitiveGroups& groups) {
  return sum_outermost(profile, frame_names, groups, &CallNode::inclusive_cycles);
}

std::map<std::string, double> primitive_share(const Profile& profile,
                                              const std::vector<std::string>& frame_names,
                                              const PrimitiveGroups& groups) {
  std::map<std::string, double> shares;
  const double total = static_cast<double>(profile.total_cycles);
  for (const auto& [group, cycles] : primitive_cycles(profile, frame_names, groups)) {
    const double share = total > 0 ? static_cast<double>(cycles) / total : 0.0;
    shares[group] = std::clamp(share, 0.0, 1.0);
  }
  return shares;
}

std::map<std::string, uint64_t> primitive_calls(const Profile& profile,
                                                const std::vector<std::string>& frame_names,
                                                const PrimitiveGroups& groups) {
  return sum_outermost(profile, frame_names, groups, &CallNode::calls);
}

util::Result<std::unique_ptr<PrimitiveShareRecorder>> PrimitiveShareRecorder::create(
    const elf::ElfImage& image, PrimitiveGroups groups) {
  auto operations = elf::harness_operation_entries(image);
  if (!operations) return tl::unexpected(operations.error());
  TrackerOptions options;
  options.call_tree_only = true;  // the share reads the tree alone
  std::unordered_map<uint32_t, std::string> names;
  for (const auto& s : image.symbols()) {
    if (!s.is_function) continue;
    options.function_entries.push_back(s.address);
    names.emplace(s.address, s.name);  // the first of several names at one address
  }
  for (const auto& op : *operations) options.spans.push_back({op.name, op.run_address});
  // No call trace: the share needs only the call tree, and the trace costs memory and time.
  options.event_limit = 0;
  return std::unique_ptr<PrimitiveShareRecorder>(
      new PrimitiveShareRecorder(std::move(options), std::move(names), std::move(groups)));
}

PrimitiveShareRecorder::PrimitiveShareRecorder(TrackerOptions options,
                                               std::unordered_map<uint32_t, std::string> names,
                                               PrimitiveGroups groups)
    : tracker_(std::move(options)), function_names_(std::move(names)), groups_(std::move(groups)) {}

std::map<std::string, PrimitiveFigures> PrimitiveShareRecorder::finish() {
  const ProfileSet set = tracker_.finish();
  std::vector<std::string> frame_names;
  frame_names.reserve(set.frames.size());
  for (const Frame& f : set.frames) {
    auto it = function_names_.find(f.address);
    frame_names.push_back(it != function_names_.end() ? it->second : std::string());
  }
  std::map<std::string, PrimitiveFigures> out;
  // profiles[0] is the whole run; the others are the operations that ran.
  for (size_t i = 1; i < set.profiles.size(); ++i) {
    const Profile& p = set.profiles[i];
    PrimitiveFigures& figures = out[p.name];
    figures.share = primitive_share(p, frame_names, groups_);
    const double executions = static_cast<double>(p.execution_cycles.size());
    for (const auto& [group, calls] : primitive_calls(p, frame_names, groups_))
      figures.calls_per_execution[group] =
          executions > 0 ? static_cast<double>(calls) / executions : 0.0;
  }
  return out;
}

}  // namespace fathom::profile
