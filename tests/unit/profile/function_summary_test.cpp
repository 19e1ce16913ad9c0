#include "profile/function_summary.h"

#include <gtest/gtest.h>

#include <map>

#include "export/profile_fixture.h"

namespace fathom::profile {
namespace {

std::map<uint32_t, FunctionCosts> by_frame(const Profile& profile) {
  std::map<uint32_t, FunctionCosts> out;
  for (const FunctionCosts& c : function_costs(profile)) {
    EXPECT_EQ(out.count(c.frame), 0u) << "one row per frame";
    out[c.frame] = c;
  }
  return out;
}

TEST(FunctionCosts, ExclusiveIsSummedAndInclusiveCountsRecursionOnce) {
  const auto rows = by_frame(fixture::traced_profile());
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows.at(fixture::kMain).inclusive_cycles, 87u);
  EXPECT_EQ(rows.at(fixture::kMain).exclusive_cycles, 10u);
  // b calls itself: 5 + 7 cycles of its own, 27 with b on the path (not 27 + 22).
  EXPECT_EQ(rows.at(fixture::kB).exclusive_cycles, 12u);
  EXPECT_EQ(rows.at(fixture::kB).inclusive_cycles, 27u);
  EXPECT_EQ(rows.at(fixture::kB).calls, 2u);
  EXPECT_EQ(rows.at(fixture::kB).inclusive_instructions, 17u);
  // c is reached on two paths: both count.
  EXPECT_EQ(rows.at(fixture::kC).exclusive_cycles, 45u);
  EXPECT_EQ(rows.at(fixture::kC).inclusive_cycles, 45u);
  EXPECT_EQ(rows.at(fixture::kC).calls, 3u);
}

TEST(FunctionCosts, RowsAreSortedByInclusiveCyclesAndSelfCostsAddUpToTheTotal) {
  const Profile p = fixture::traced_profile();
  const auto rows = function_costs(p);
  uint64_t self = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    self += rows[i].exclusive_cycles;
    if (i > 0) EXPECT_GE(rows[i - 1].inclusive_cycles, rows[i].inclusive_cycles);
  }
  EXPECT_EQ(self, p.total_cycles);
  EXPECT_EQ(rows.front().frame, fixture::kMain);
}

TEST(FunctionCosts, EmptyAndLoopingTreesEnd) {
  EXPECT_TRUE(function_costs(Profile{}).empty());
  Profile p = fixture::traced_profile();
  p.nodes[1].children.push_back(0);  // a link back to the root is skipped
  EXPECT_EQ(function_costs(p).size(), 4u);
}

}  // namespace
}  // namespace fathom::profile
