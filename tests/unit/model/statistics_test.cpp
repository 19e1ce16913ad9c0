#include "model/statistics.h"

#include <gtest/gtest.h>

namespace fathom::model {
namespace {

TEST(Statistics, EmptyHasNoSummary) { EXPECT_FALSE(summarize({}).has_value()); }

TEST(Statistics, OddCountMedianIsMiddleValue) {
  auto s = summarize({5, 1, 3});
  ASSERT_TRUE(s);
  EXPECT_EQ(s->count, 3u);
  EXPECT_DOUBLE_EQ(s->median, 3);
  EXPECT_EQ(s->min, 1u);
  EXPECT_EQ(s->max, 5u);
  EXPECT_DOUBLE_EQ(s->mean, 3);
}

TEST(Statistics, EvenCountMedianAveragesMiddlePair) {
  auto s = summarize({4, 1, 2, 3});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->median, 2.5);
}

TEST(Statistics, P99IsNearestRank) {
  std::vector<uint64_t> v;
  for (uint64_t i = 1; i <= 200; ++i) v.push_back(i);
  auto s = summarize(v);
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->p99, 198);  // ceil(0.99 * 200) = 198th value
  auto one = summarize({42});
  EXPECT_DOUBLE_EQ(one->p99, 42);
}

}  // namespace
}  // namespace fathom::model
