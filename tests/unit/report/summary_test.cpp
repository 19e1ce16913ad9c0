#include "report/summary.h"

#include <gtest/gtest.h>

#include "run_fixture.h"

namespace fathom::report {
namespace {

const SummaryRow* find_row(const Summary& s, const std::string& config, const std::string& op) {
  for (const auto& row : s.rows)
    if (row.image->configuration == config && row.operation && row.operation->operation == op)
      return &row;
  return nullptr;
}

TEST(Summary, RatioIsAgainstTheFirstConfigurationForTheSameOperation) {
  const auto run = fixture::make_run(2);
  const auto summary = summarize_run(run, RowOrder::kOperation);
  EXPECT_EQ(summary.configuration_count, 2u);
  const auto* base = find_row(summary, "mbedtls", "sha256_1k");
  const auto* other = find_row(summary, "mbedtls-no-nist-optim", "sha256_1k");
  ASSERT_TRUE(base && other);
  EXPECT_DOUBLE_EQ(*base->ratio, 1.0);
  EXPECT_DOUBLE_EQ(*other->ratio, 2.0);
  EXPECT_DOUBLE_EQ(*base->time_us, 10.0);  // 1,280 cycles at 128 MHz
  const auto* failed = find_row(summary, "mbedtls-no-nist-optim", "ecdsa_p256_sign");
  ASSERT_TRUE(failed);
  EXPECT_FALSE(failed->timed);
  EXPECT_FALSE(failed->ratio.has_value());
  EXPECT_FALSE(failed->time_us.has_value());
}

TEST(Summary, NoRatioWhenTheBaselineHasNoTiming) {
  auto run = fixture::make_run(2);
  std::swap(run.images[0], run.images[1]);  // the image with the failed KAT becomes baseline
  const auto summary = summarize_run(run, RowOrder::kImage);
  EXPECT_FALSE(find_row(summary, "mbedtls", "ecdsa_p256_sign")->ratio.has_value());
  EXPECT_DOUBLE_EQ(*find_row(summary, "mbedtls", "sha256_1k")->ratio, 0.5);
}

TEST(Summary, RowOrders) {
  const auto run = fixture::make_run(3);
  const auto by_image = summarize_run(run, RowOrder::kImage);
  ASSERT_EQ(by_image.rows.size(), 5u);  // 2 + 2 operations + 1 row for the broken image
  EXPECT_EQ(by_image.rows[1].operation->operation, "ecdsa_p256_sign");
  EXPECT_EQ(by_image.rows[4].operation, nullptr);
  const auto by_op = summarize_run(run, RowOrder::kOperation);
  ASSERT_EQ(by_op.rows.size(), 5u);
  EXPECT_EQ(by_op.rows[0].operation->operation, "sha256_1k");
  EXPECT_EQ(by_op.rows[1].operation->operation, "sha256_1k");
  EXPECT_EQ(by_op.rows[1].image->configuration, "mbedtls-no-nist-optim");
}

TEST(Summary, ProblemsListFaultsErrorsAndFailedKats) {
  const auto summary = summarize_run(fixture::make_run(3), RowOrder::kImage);
  ASSERT_EQ(summary.problems.size(), 3u);
  EXPECT_EQ(summary.problems[0],
            "mbedtls-no-nist-optim on sim-m33: ecdsa_p256_sign known-answer test FAIL: "
            "rfc6979-a.2.5-sha256");
  EXPECT_EQ(summary.problems[1],
            "broken on sim-m33: fault hardfault at 0x00001234 in foo: bad access");
  EXPECT_NE(summary.problems[2].find("broken on sim-m33: image stopped"), std::string::npos);
}

TEST(Summary, Formatting) {
  EXPECT_EQ(with_thousands(0), "0");
  EXPECT_EQ(with_thousands(999), "999");
  EXPECT_EQ(with_thousands(1000), "1,000");
  EXPECT_EQ(with_thousands(1234567), "1,234,567");
  EXPECT_EQ(plain_number(1234.0), "1234");
  EXPECT_EQ(plain_number(1234.5), "1234.5");
  model::OperationResult op;
  EXPECT_EQ(kat_text(op), "not run");
  op.kat = model::KatStatus::kFailed;
  EXPECT_EQ(kat_text(op), "FAIL");
  op.kat_vectors = {{"a", false}, {"b", true}, {"c", false}};
  EXPECT_EQ(kat_text(op), "FAIL: a, c");
  op.kat = model::KatStatus::kPassed;
  EXPECT_EQ(kat_text(op), "pass");
}

}  // namespace
}  // namespace fathom::report
