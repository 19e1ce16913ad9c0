#include "profile/export/flame_tree.h"

#include <gtest/gtest.h>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

using Json = nlohmann::ordered_json;

const Json* child(const Json& node, const std::string& name) {
  for (const auto& c : node["children"])
    if (c["name"] == name) return &c;
  return nullptr;
}

// Every node's value is at least its children's sum (the viewer's widths nest), and returns the
// sum of the self values (value minus children) over the tree.
uint64_t checked_self_sum(const Json& node) {
  uint64_t children = 0, selves = 0;
  for (const auto& c : node["children"]) {
    children += c["value"].get<uint64_t>();
    selves += checked_self_sum(c);
  }
  EXPECT_GE(node["value"].get<uint64_t>(), children) << node["name"];
  return selves + node["value"].get<uint64_t>() - children;
}

int64_t delta_sum(const Json& node) {
  int64_t sum = node["delta"].get<int64_t>();
  for (const auto& c : node["children"]) sum += delta_sum(c);
  return sum;
}

TEST(FlameTree, ValuesAreInclusiveCyclesPerCallPath) {
  const ProfileSet set = fixture::one_profile();
  const Json tree = flame_tree(set, set.profiles[0]);
  EXPECT_EQ(tree["name"], "main");
  EXPECT_EQ(tree["value"], 87u);
  EXPECT_FALSE(tree.contains("delta"));
  const Json* a = child(tree, "a");
  const Json* b = child(tree, "b");
  ASSERT_TRUE(a && b);
  EXPECT_EQ((*a)["value"], 50u);
  EXPECT_EQ((*child(*a, "c"))["value"], 30u);
  EXPECT_EQ((*b)["value"], 27u);
  const Json* bb = child(*b, "b");
  ASSERT_TRUE(bb) << "recursion keeps its own path";
  EXPECT_EQ((*bb)["value"], 22u);
  EXPECT_EQ((*child(*bb, "c"))["value"], 15u);
  EXPECT_EQ(checked_self_sum(tree), set.profiles[0].total_cycles);
}

TEST(FlameTree, DifferentialHasTheChangesShapeAndDeltasThatAddUp) {
  const ProfileSet set = fixture::two_profiles();
  const Profile& a = set.profiles[0];  // 87 cycles: main, a, c, b, b, c
  const Profile& b = set.profiles[1];  // 150 cycles: main, c
  const Json tree = differential_flame_tree(set, a, set, b);
  EXPECT_EQ(tree["value"], 150u);
  EXPECT_EQ(tree["delta"], 100 - 10);
  const Json* c = child(tree, "c");
  ASSERT_TRUE(c);
  EXPECT_EQ((*c)["value"], 50u);
  EXPECT_EQ((*c)["delta"], 50);
  // What only A has stays, with no width and its negative change.
  const Json* gone = child(tree, "a");
  ASSERT_TRUE(gone);
  EXPECT_EQ((*gone)["value"], 0u);
  EXPECT_EQ((*gone)["delta"], -20);
  EXPECT_EQ((*child(*gone, "c"))["delta"], -30);
  EXPECT_EQ(delta_sum(tree), 150 - 87);
  EXPECT_EQ(checked_self_sum(tree), 150u);
}

}  // namespace
}  // namespace fathom::profile
