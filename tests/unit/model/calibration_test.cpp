#include "model/calibration.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>

namespace fathom::model {
namespace {

TEST(Calibration, RelativeErrorIsSignedPercentOfThePublishedFigure) {
  EXPECT_DOUBLE_EQ(relative_error_percent(110, 100), 10.0);
  EXPECT_DOUBLE_EQ(relative_error_percent(97, 100), -3.0);
  EXPECT_DOUBLE_EQ(relative_error_percent(100, 100), 0.0);
}

TEST(Calibration, MedianAbsoluteUsesMagnitudesAndAveragesTheMiddlePair) {
  EXPECT_FALSE(median_absolute({}).has_value());
  EXPECT_DOUBLE_EQ(*median_absolute({-5.0}), 5.0);
  EXPECT_DOUBLE_EQ(*median_absolute({-5.0, 1.0, 3.0}), 3.0);
  EXPECT_DOUBLE_EQ(*median_absolute({-4.0, 1.0, 2.0, -10.0}), 3.0);
}

TEST(Calibration, TableKeepsReferenceOrderAndSkipsMissingTimingsInTheMedian) {
  ReferenceSet ref;
  ref.measurements = {{"b_op", 1000}, {"a_op", 200}, {"missing", 50}};
  const std::map<std::string, std::pair<uint64_t, uint32_t>> model = {
      {"a_op", {220, 3}}, {"b_op", {950, 3}}};
  auto table = make_calibration_table(
      ref, [&](const std::string& op) -> std::optional<std::pair<uint64_t, uint32_t>> {
        auto it = model.find(op);
        if (it == model.end()) return std::nullopt;
        return it->second;
      });
  ASSERT_EQ(table.rows.size(), 3u);
  EXPECT_EQ(table.rows[0].operation, "b_op");
  EXPECT_DOUBLE_EQ(*table.rows[0].error_percent, -5.0);
  EXPECT_EQ(table.rows[1].model_cycles_median, 220u);
  EXPECT_EQ(table.rows[1].model_runs, 3u);
  EXPECT_DOUBLE_EQ(*table.rows[1].error_percent, 10.0);
  EXPECT_FALSE(table.rows[2].model_cycles_median.has_value());
  EXPECT_FALSE(table.rows[2].error_percent.has_value());
  EXPECT_EQ(table.rows[2].published_cycles, 50u);
  EXPECT_DOUBLE_EQ(*table.median_absolute_error_percent, 7.5);  // |-5| and |10|
}

TEST(Calibration, LikeForLikeComparesTheCyclesOutsideTheHashingGroup) {
  ReferenceSet ref;
  ref.hashing_group = "G";
  ref.measurements = {{"a_op", 1000, 0.5}, {"b_op", 400, 0.25}, {"no_share", 10, std::nullopt},
                      {"missing", 50, 0.1}};
  // a_op: model 1200 with 60 % under G -> outside 480 against 1000 x 0.5 = 500: -4 %.
  // b_op: model 500 with 30 % -> 350 against 400 x 0.75 = 300: +16.67 %.
  const std::map<std::string, std::pair<uint64_t, double>> model = {
      {"a_op", {1200, 0.6}}, {"b_op", {500, 0.3}}, {"no_share", {10, 0.0}}};
  auto table = make_like_for_like_table(
      ref, [&](const std::string& op) -> std::optional<std::pair<uint64_t, double>> {
        auto it = model.find(op);
        if (it == model.end()) return std::nullopt;
        return it->second;
      });
  ASSERT_EQ(table.rows.size(), 3u);  // no_share has no published share: not in the view
  EXPECT_DOUBLE_EQ(table.rows[0].published_outside, 500.0);
  EXPECT_DOUBLE_EQ(*table.rows[0].model_outside, 480.0);
  EXPECT_DOUBLE_EQ(*table.rows[0].error_percent, -4.0);
  EXPECT_DOUBLE_EQ(*table.rows[1].error_percent, 50.0 / 3.0);
  EXPECT_EQ(table.rows[2].operation, "missing");
  EXPECT_FALSE(table.rows[2].error_percent.has_value());
  EXPECT_DOUBLE_EQ(*table.median_absolute_error_percent, (4.0 + 50.0 / 3.0) / 2.0);
  EXPECT_DOUBLE_EQ(*table.max_absolute_error_percent, 50.0 / 3.0);
}

}  // namespace
}  // namespace fathom::model
