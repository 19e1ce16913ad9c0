#include "profile/export/flame_tree.h"

#include <map>
#include <memory>
#include <vector>

#include "profile/export/profile_views.h"

namespace fathom::profile {
namespace {

using Json = nlohmann::ordered_json;

// A trie of frame names; children in order of first appearance (the call tree's pre-order).
struct Node {
  std::string name;
  uint64_t self_b = 0;
  uint64_t self_a = 0;
  std::vector<std::unique_ptr<Node>> children;
  std::map<std::string, Node*> by_name;

  Node* child(const std::string& child_name) {
    auto it = by_name.find(child_name);
    if (it != by_name.end()) return it->second;
    children.push_back(std::make_unique<Node>());
    children.back()->name = child_name;
    by_name[child_name] = children.back().get();
    return children.back().get();
  }
};

// Adds `profile`'s exclusive stacks below `root` into self_b (`into_b`) or self_a. The stacks'
// first frame is the call tree's root, which becomes `root` itself.
void add_stacks(Node& root, const ProfileSet& set, const Profile& profile, bool into_b) {
  for (const CallStack& stack : exclusive_stacks(profile, set.frames.size())) {
    Node* node = &root;
    for (size_t i = 0; i < stack.frames.size(); ++i) {
      const std::string name = frame_name(set, stack.frames[i]);
      if (i == 0) {
        if (root.name.empty()) root.name = name;
        if (name == root.name) continue;
      }
      node = node->child(name);
    }
    (into_b ? node->self_b : node->self_a) += stack.exclusive_cycles;
  }
}

// The node as JSON, with its inclusive cycles (B's) in `*value`.
Json to_json(const Node& node, bool differential, uint64_t* value) {
  Json out = Json::object();
  out["name"] = node.name;
  uint64_t total = node.self_b;
  Json children = Json::array();
  for (const auto& c : node.children) {
    uint64_t child_value = 0;
    children.push_back(to_json(*c, differential, &child_value));
    total += child_value;
  }
  out["value"] = total;
  if (differential)
    out["delta"] = static_cast<int64_t>(node.self_b) - static_cast<int64_t>(node.self_a);
  out["children"] = std::move(children);
  *value = total;
  return out;
}

}  // namespace

Json flame_tree(const ProfileSet& set, const Profile& profile) {
  Node root;
  add_stacks(root, set, profile, true);
  if (root.name.empty()) root.name = profile.name;
  uint64_t value = 0;
  return to_json(root, false, &value);
}

Json differential_flame_tree(const ProfileSet& a_set, const Profile& a, const ProfileSet& b_set,
                             const Profile& b) {
  Node root;
  add_stacks(root, b_set, b, true);
  add_stacks(root, a_set, a, false);
  if (root.name.empty()) root.name = b.name;
  uint64_t value = 0;
  return to_json(root, true, &value);
}

}  // namespace fathom::profile
