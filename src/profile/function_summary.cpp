#include "profile/function_summary.h"

#include <algorithm>
#include <map>

#include "profile/export/profile_views.h"

namespace fathom::profile {

std::vector<FunctionCosts> function_costs(const Profile& profile) {
  std::map<uint32_t, FunctionCosts> rows;
  // Frames on the path from the root to the node being visited, with their multiplicity.
  std::vector<uint32_t> path;
  std::map<uint32_t, uint32_t> on_path;
  walk_call_tree(profile, [&](uint32_t index, uint32_t depth) {
    while (path.size() > depth) {
      if (--on_path[path.back()] == 0) on_path.erase(path.back());
      path.pop_back();
    }
    const CallNode& n = profile.nodes[index];
    FunctionCosts& r = rows[n.frame];
    r.frame = n.frame;
    r.calls += n.calls;
    r.exclusive_cycles += n.exclusive_cycles;
    r.exclusive_instructions += n.exclusive_instructions;
    if (!on_path.count(n.frame)) {
      r.inclusive_cycles += n.inclusive_cycles;
      r.inclusive_instructions += n.inclusive_instructions;
    }
    path.push_back(n.frame);
    ++on_path[n.frame];
  });
  std::vector<FunctionCosts> out;
  out.reserve(rows.size());
  for (const auto& [frame, r] : rows) out.push_back(r);
  std::stable_sort(out.begin(), out.end(), [](const FunctionCosts& a, const FunctionCosts& b) {
    return a.inclusive_cycles > b.inclusive_cycles;
  });
  return out;
}

}  // namespace fathom::profile
