#include "profile/inline_expansion.h"

#include <map>
#include <string>
#include <unordered_map>

namespace fathom::profile {

size_t expand_inlined(ProfileSet& set, elf::DebugInfo& debug) {
  if (!debug.has_dwarf()) return 0;
  std::unordered_map<std::string, uint32_t> inlined_frame;  // function name -> frame
  auto frame_for = [&](const elf::InlineFrame& f) {
    const std::string name = (f.function.empty() ? std::string("??") : f.function) + " (inlined)";
    auto [it, inserted] = inlined_frame.try_emplace(name, static_cast<uint32_t>(set.frames.size()));
    if (inserted) {
      Frame frame;
      frame.name = name;
      frame.file = f.call_site.file;
      frame.line = f.call_site.line;
      frame.inlined = true;
      set.frames.push_back(std::move(frame));
    }
    return it->second;
  };

  size_t added = 0;
  for (Profile& p : set.profiles) {
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> child;  // (parent node, frame) -> node
    for (NodeAddressCost& cost : p.node_addresses) {
      if (cost.node >= p.nodes.size()) continue;
      const std::vector<elf::InlineFrame> chain = debug.inline_chain(cost.address);
      if (chain.empty()) continue;
      const uint32_t owner = cost.node;
      uint32_t node = owner;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {  // outermost first
        const uint32_t frame = frame_for(*it);
        auto [c, inserted] = child.try_emplace({node, frame}, static_cast<uint32_t>(p.nodes.size()));
        if (inserted) {
          CallNode n;
          n.frame = frame;
          n.parent = static_cast<int32_t>(node);
          p.nodes.push_back(n);
          p.nodes[node].children.push_back(c->second);
          ++added;
        }
        node = c->second;
        p.nodes[node].inclusive_cycles += cost.cycles;
        p.nodes[node].inclusive_instructions += cost.instructions;
      }
      // The owner keeps its inclusive cost; the instructions move to the innermost instance.
      p.nodes[owner].exclusive_cycles -= cost.cycles;
      p.nodes[owner].exclusive_instructions -= cost.instructions;
      p.nodes[node].exclusive_cycles += cost.cycles;
      p.nodes[node].exclusive_instructions += cost.instructions;
      cost.node = node;
    }
  }
  return added;
}

}  // namespace fathom::profile
