#include "analysis/fairness.h"

#include <gtest/gtest.h>

#include "../report/run_fixture.h"

namespace fathom::analysis {
namespace {

using report::fixture::image;
using report::fixture::passed_op;

model::Suite suite_with(std::vector<std::pair<std::string, std::string>> config_groups) {
  model::Suite s;
  for (auto& [name, group] : config_groups) {
    model::Configuration c;
    c.name = name;
    c.fairness_group = group;
    s.configurations.push_back(c);
  }
  return s;
}

TEST(Fairness, ChecksEachGroupOfImagesSharingLibraryLibcFlagsAndBoard) {
  model::RunResult run;
  auto a = image("a");
  a.operations.push_back(passed_op("hkdf_sha256", {10000, 10000, 10000}));
  auto b = image("b");
  b.operations.push_back(passed_op("hkdf_sha256", {10040, 10040, 10040}));  // +0.4 %
  auto c = image("c");
  c.provenance.libc = "picolibc";  // another group, alone: no check
  c.operations.push_back(passed_op("hkdf_sha256", {20000, 20000, 20000}));
  run.images = {a, b, c};
  const auto checks = check_fairness(run, suite_with({{"a", ""}, {"b", ""}, {"c", ""}}),
                                     model::FairnessSpec{{"hkdf_sha256"}, 0.5});
  ASSERT_EQ(checks.size(), 1u);
  EXPECT_EQ(checks[0].configurations, (std::vector<std::string>{"a", "b"}));
  EXPECT_NEAR(checks[0].spread_percent, 0.4, 1e-9);
  EXPECT_TRUE(checks[0].passed);
  EXPECT_EQ(checks[0].group, "mbedtls, newlib-nano, -O2 on sim-m33");
}

TEST(Fairness, ASpreadAboveTheToleranceFailsAndFailsTheRun) {
  model::RunResult run;
  auto a = image("a");
  a.operations.push_back(passed_op("hmac_sha256", {10000, 10000, 10000}));
  auto b = image("b");
  b.operations.push_back(passed_op("hmac_sha256", {10060, 10060, 10060}));  // +0.6 %
  run.images = {a, b};
  run.fairness = check_fairness(run, suite_with({{"a", ""}, {"b", ""}}),
                                model::FairnessSpec{{"hmac_sha256"}, 0.5});
  ASSERT_EQ(run.fairness.size(), 1u);
  EXPECT_FALSE(run.fairness[0].passed);
  EXPECT_NEAR(run.fairness[0].spread_percent, 0.6, 1e-9);
  EXPECT_FALSE(run.all_passed());
}

TEST(Fairness, FairnessGroupsAndUntimedOperationsAreNotCompared) {
  model::RunResult run;
  auto a = image("a");
  a.operations.push_back(passed_op("hkdf_sha256", {10000}));
  auto b = image("b");  // its own fairness group
  b.operations.push_back(passed_op("hkdf_sha256", {50000}));
  auto c = image("c");  // same group as a, but the operation has no timing
  model::OperationResult failed;
  failed.operation = "hkdf_sha256";
  failed.kat = model::KatStatus::kFailed;
  c.operations.push_back(failed);
  run.images = {a, b, c};
  EXPECT_TRUE(check_fairness(run, suite_with({{"a", ""}, {"b", "asm"}, {"c", ""}}),
                             model::FairnessSpec{{"hkdf_sha256"}, 0.5})
                  .empty());
}

}  // namespace
}  // namespace fathom::analysis
