// run_suite's worker pool: results in suite order whatever -j, and a failing image never
// hides the others. The images here fail before anything is compiled (unknown board, unknown
// library), so the test needs only the toolchain to be installed, not a build.
#include <gtest/gtest.h>

#include <filesystem>

#include "build/toolchain.h"
#include "pipeline/suite_builder.h"
#include "pipeline/suite_runner.h"
#include "util/source_dir.h"

namespace fathom::pipeline {
namespace {

model::Suite failing_suite() {
  model::Suite suite;
  suite.name = "parallel";
  suite.boards = {"sim-m33", "no-such-board"};
  for (const char* name : {"first", "second", "third"}) {
    model::Configuration c;
    c.name = name;
    c.library = std::string("no-such-library-") + name;
    suite.configurations.push_back(c);
  }
  return suite;
}

RunOptions options_with_jobs(unsigned jobs) {
  RunOptions options;
  options.firmware_dir = std::filesystem::path(fathom::util::source_dir()) / "firmware";
  options.build_root = std::filesystem::temp_directory_path() / "fathom-parallel-test-unused";
  options.jobs = jobs;
  return options;
}

TEST(SuiteRunnerParallel, OrderAndFailuresDoNotDependOnJobs) {
  if (!build::find_toolchain()) GTEST_SKIP() << "arm-none-eabi-gcc is not installed";
  const model::Suite suite = failing_suite();
  util::Progress progress;
  RunCounts counts;
  auto sequential = run_suite(suite, options_with_jobs(1), progress);
  auto parallel = run_suite(suite, options_with_jobs(2), progress, &counts);
  ASSERT_TRUE(sequential.has_value()) << sequential.error().message;
  ASSERT_TRUE(parallel.has_value()) << parallel.error().message;
  ASSERT_EQ(parallel->images.size(), 6u);
  EXPECT_EQ(counts.images, 6u);
  EXPECT_EQ(counts.builds_reused, 0u);
  EXPECT_EQ(counts.results_reused, 0u);
  size_t i = 0;
  for (const char* cfg : {"first", "second", "third"}) {
    for (const char* board : {"sim-m33", "no-such-board"}) {
      const auto& image = parallel->images[i];
      EXPECT_EQ(image.configuration, cfg) << i;
      EXPECT_EQ(image.board, board) << i;
      EXPECT_FALSE(image.completed);
      // Each image has its own failure: the board's, or else its library's.
      const std::string want = board == std::string("sim-m33") ? std::string("no-such-library-") + cfg
                                                               : std::string("no-such-board");
      EXPECT_NE(image.error.find(want), std::string::npos) << i << ": " << image.error;
      EXPECT_EQ(image.error, sequential->images[i].error) << i;
      ++i;
    }
  }
}

TEST(SuiteRunnerParallel, MatrixFollowsSuiteOrderAndOptions) {
  model::Suite suite = failing_suite();
  suite.configurations[1].boards = {"sim-m4"};  // a matrix exclusion left it one board
  RunOptions options = options_with_jobs(2);
  auto matrix = suite_matrix(suite, options);
  ASSERT_EQ(matrix.size(), 5u);
  EXPECT_EQ(matrix[0].configuration->name, "first");
  EXPECT_EQ(matrix[1].board, "no-such-board");
  EXPECT_EQ(matrix[2].configuration->name, "second");
  EXPECT_EQ(matrix[2].board, "sim-m4");
  EXPECT_EQ(matrix[3].configuration->name, "third");
  options.configurations = {"third"};
  options.boards = {"sim-m0plus"};
  matrix = suite_matrix(suite, options);
  ASSERT_EQ(matrix.size(), 1u);
  EXPECT_EQ(matrix[0].board, "sim-m0plus");
}

TEST(SuiteRunnerParallel, NinjaJobsShareTheCpus) {
  EXPECT_EQ(ninja_jobs_per_image(1), 0u);  // one image at a time: ninja's own default
  EXPECT_GE(ninja_jobs_per_image(2), 1u);
  EXPECT_EQ(ninja_jobs_per_image(100000), 1u);
}

}  // namespace
}  // namespace fathom::pipeline
