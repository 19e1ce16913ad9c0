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

namespace fathom::model {
namespace {

TEST(Spread, EmptyHasNone) { EXPECT_FALSE(spread({}).has_value()); }

TEST(Spread, OneSampleHasNoSpread) {
  auto s = spread({42});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->median, 42);
  EXPECT_DOUBLE_EQ(s->iqr, 0);
  EXPECT_DOUBLE_EQ(s->mad, 0);
}

TEST(Spread, QuartilesInterpolateBetweenRanks) {
  // 1..8: positions 1.75 and 5.25 of 0..7 -> 2.75 and 6.25 (numpy.percentile's default).
  auto s = spread({8, 1, 7, 2, 6, 3, 5, 4});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->q1, 2.75);
  EXPECT_DOUBLE_EQ(s->q3, 6.25);
  EXPECT_DOUBLE_EQ(s->iqr, 3.5);
  EXPECT_DOUBLE_EQ(s->median, 4.5);
}

TEST(Spread, MadIgnoresOneOutlier) {
  // Deviations from the median 1000: 0, 2, 2, 4, 4, 99000 -> median of them is 3.
  auto s = spread({1000, 998, 1002, 996, 1004, 100000});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->median, 1001);
  // |x - 1001|: 1, 3, 1, 5, 3, 98999 -> sorted 1 1 3 3 5 98999 -> 3.
  EXPECT_DOUBLE_EQ(s->mad, 3);
  EXPECT_NEAR(s->relative_mad(), 3.0 / 1001.0, 1e-12);
  // The summary's max shows the outlier; the spread does not follow it.
  EXPECT_EQ(summarize({1000, 998, 1002, 996, 1004, 100000})->max, 100000u);
}

TEST(Spread, RelativeMadOfZeroMedianIsZero) {
  auto s = spread({0, 0, 5});
  ASSERT_TRUE(s);
  EXPECT_DOUBLE_EQ(s->relative_mad(), 0);
}

}  // namespace
}  // namespace fathom::model
