#include "report/benchmark_tables.h"

#include <gtest/gtest.h>

#include <sstream>

#include "run_fixture.h"

namespace fathom::report {
namespace {

std::string render(const model::RunResult& run) {
  std::ostringstream out;
  BenchmarkTablesWriter().write(run, out);
  return out.str();
}

// The two-configuration fixture with a timing model and primitive shares on two operations;
// the operation whose KAT failed carries a share that must not appear.
model::RunResult run_with_shares() {
  auto run = fixture::make_run(2);
  for (auto& image : run.images) image.provenance.timing_model = "cortex-m33";
  run.images[0].operations[0].primitive_share = {{"SHA-2", 0.875}, {"AES", 0}};  // no AES column
  run.images[0].operations[1].primitive_share = {{"SHA-2", 0.125}, {"bignum", 0.625}};
  run.images[1].operations[1].primitive_share = {{"poison", 0.5}};
  return run;
}

TEST(BenchmarkTables, PrintsSpeedMemoryShareSizeAndProblemTables) {
  const std::string expected =
      "# Benchmarks: suite `default`\n"
      "\n"
      "- board `sim-m33`: cortex-m33 at 128 MHz, timing model `cortex-m33`\n"
      "\n"
      "## Speed\n"
      "\n"
      "| operation | implementation | runs | AVG [cycles] | median [cycles] | MIN [cycles] | "
      "MAX [cycles] |\n"
      "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n"
      "| sha256_1k | mbedtls | 3 | 1,283 | 1,280 | 1,280 | 1,290 |\n"
      "| sha256_1k | mbedtls-no-nist-optim | 3 | 2,563 | 2,560 | 2,560 | 2,570 |\n"
      "| ecdsa_p256_sign | mbedtls | 3 | 4,000,033 | 4,000,000 | 4,000,000 | 4,000,100 |\n"
      "| ecdsa_p256_sign | mbedtls-no-nist-optim | - | - | - | - | - |\n"
      "\n"
      "## Memory\n"
      "\n"
      "| operation | implementation | stack [bytes] | heap [bytes] |\n"
      "| --- | --- | ---: | ---: |\n"
      "| sha256_1k | mbedtls | 1,024 | 2,048 |\n"
      "| sha256_1k | mbedtls-no-nist-optim | 1,024 | 2,048 |\n"
      "| ecdsa_p256_sign | mbedtls | 1,024 | 2,048 |\n"
      "| ecdsa_p256_sign | mbedtls-no-nist-optim | - | - |\n"
      "\n"
      "## Primitive share\n"
      "\n"
      "Share of each operation's cycles spent in each group of functions; nested groups count "
      "for each of them.\n"
      "\n"
      "| operation | implementation | SHA-2 [%] | bignum [%] |\n"
      "| --- | --- | ---: | ---: |\n"
      "| sha256_1k | mbedtls | 87.5 | - |\n"
      "| ecdsa_p256_sign | mbedtls | 12.5 | 62.5 |\n"
      "\n"
      "## Size\n"
      "\n"
      "| implementation | flash [bytes] | RAM [bytes] |\n"
      "| --- | ---: | ---: |\n"
      "| mbedtls | 100,000 | 20,000 |\n"
      "| mbedtls-no-nist-optim | 100,000 | 20,000 |\n"
      "\n"
      "## Problems\n"
      "\n"
      "- mbedtls-no-nist-optim on sim-m33: ecdsa_p256_sign known-answer test FAIL: "
      "rfc6979-a.2.5-sha256\n";
  EXPECT_EQ(render(run_with_shares()), expected);
}

TEST(BenchmarkTables, NoShareTableWithoutShares) {
  const std::string text = render(fixture::make_run(2));
  EXPECT_EQ(text.find("Primitive share"), std::string::npos);
  EXPECT_NE(text.find("## Speed"), std::string::npos);
}

TEST(BenchmarkTables, SeveralBoardsAddABoardColumnAndLine) {
  auto run = fixture::make_run(1);
  auto m4 = run.images[0];
  m4.board = "sim-m4";
  m4.provenance.core = "cortex-m4";
  m4.provenance.clock_hz = 80'000'000;
  m4.operations.resize(1);
  run.images.push_back(m4);
  const std::string text = render(run);
  EXPECT_NE(text.find("- board `sim-m33`: cortex-m33 at 128 MHz\n- board `sim-m4`: cortex-m4 at "
                      "80 MHz\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("| operation | implementation | board | runs |"), std::string::npos);
  EXPECT_NE(text.find("| sha256_1k | mbedtls | sim-m4 | 3 |"), std::string::npos) << text;
  EXPECT_NE(text.find("| implementation | board | flash [bytes] | RAM [bytes] |"),
            std::string::npos);
}

TEST(BenchmarkTables, CellsCannotBreakTheTable) {
  auto run = fixture::make_run(1);
  run.images[0].configuration = "a|b\nc";
  const std::string text = render(run);
  EXPECT_NE(text.find("| sha256_1k | a\\|b c | 3 |"), std::string::npos) << text;
}

TEST(BenchmarkTables, AnEmptyRunIsOnlyTheTitle) {
  model::RunResult empty;
  empty.suite = "empty";
  EXPECT_EQ(render(empty), "# Benchmarks: suite `empty`\n");
}

}  // namespace
}  // namespace fathom::report
