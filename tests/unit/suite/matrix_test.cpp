#include "suite/matrix.h"

#include <gtest/gtest.h>

#include <string>

#include "suite/analysis_specs.h"
#include "suite/suite_loader.h"

namespace fathom::suite {
namespace {

const std::string kHead = R"([suite]
name = "m"
boards = ["sim-m33", "sim-m4"]

[[configuration]]
name = "a"
library = "mbedtls"
cflags = ["-O2", "-g3"]

[[configuration]]
name = "b"
library = "pqclean"
libc = "newlib"
)";

std::vector<std::string> names_of(const model::Suite& s) {
  std::vector<std::string> n;
  for (const auto& c : s.configurations) n.push_back(c.name);
  return n;
}

TEST(Matrix, ExpandsEveryConfigurationOverTheAxesInOrder) {
  auto suite = parse_suite(kHead + R"(
[matrix]
libc = ["newlib", "picolibc"]
optimization = ["-O2", "-Os"]
)", "m.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  EXPECT_EQ(names_of(*suite),
            (std::vector<std::string>{"a.newlib.O2", "a.newlib.Os", "a.picolibc.O2",
                                      "a.picolibc.Os", "b.newlib.O2", "b.newlib.Os",
                                      "b.picolibc.O2", "b.picolibc.Os"}));
  const auto& c = suite->configurations[3];
  EXPECT_EQ(c.base_name, "a");
  EXPECT_EQ(c.libc, "picolibc");
  // The axis replaces the configuration's own -O flag and keeps its other flags.
  EXPECT_EQ(c.cflags, (std::vector<std::string>{"-Os", "-g3"}));
  EXPECT_EQ(c.axes, (std::vector<std::pair<std::string, std::string>>{
                        {"libc", "picolibc"}, {"optimization", "-Os"}}));
  EXPECT_TRUE(c.boards.empty());
  EXPECT_EQ(suite->matrix_axes, (std::vector<std::string>{"libc", "optimization", "board"}));
}

TEST(Matrix, AMissingAxisKeepsTheConfigurationsOwnValue) {
  auto suite = parse_suite(kHead + "\n[matrix]\noptimization = [\"-O3\"]\n", "m.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  EXPECT_EQ(names_of(*suite), (std::vector<std::string>{"a.O3", "b.O3"}));
  EXPECT_EQ(suite->configurations[0].libc, "newlib-nano");
  EXPECT_EQ(suite->configurations[1].libc, "newlib");
}

TEST(Matrix, ExclusionsRemoveCellsOrSingleBoards) {
  auto suite = parse_suite(kHead + R"(
[matrix]
libc = ["newlib", "picolibc"]
exclude = [ { configuration = "a", libc = "picolibc" },
            { configuration = "b", board = "sim-m4" },
            { libc = "newlib", board = "sim-m33" } ]
)", "m.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  // a.picolibc is gone; b.newlib loses both boards (one exclusion each) and is dropped;
  // a.newlib runs on sim-m4 only; b.picolibc on sim-m33 only.
  EXPECT_EQ(names_of(*suite), (std::vector<std::string>{"a.newlib", "b.picolibc"}));
  EXPECT_EQ(suite->configurations[0].boards, std::vector<std::string>{"sim-m4"});
  EXPECT_EQ(suite->configurations[1].boards, std::vector<std::string>{"sim-m33"});
  EXPECT_EQ(model::boards_of(*suite, suite->configurations[1]),
            std::vector<std::string>{"sim-m33"});
}

std::string error_of(const std::string& matrix) {
  auto suite = parse_suite(kHead + matrix, "m.toml");
  EXPECT_FALSE(suite.has_value()) << matrix;
  return suite ? std::string() : suite.error().message;
}

TEST(Matrix, BadMatricesAreErrorsAtTheirPosition) {
  EXPECT_EQ(error_of("[matrix]\nlibc = [\"glibc\"]\n"),
            "m.toml:15:9: 'libc' in [matrix]: unknown C library 'glibc' (use one of: newlib, "
            "newlib-nano, picolibc)");
  EXPECT_NE(error_of("[matrix]\noptimization = [\"-O9\"]\n").find("m.toml:15:17: 'optimization' in [matrix]: '-O9' is not"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = []\n").find("at least one value"), std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = [\"newlib\"]\nexclude = [{ configuration = \"zz\" }]\n")
                .find("m.toml:16:12: exclusion names configuration 'zz'"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = [\"newlib\"]\nexclude = [{ libc = \"picolibc\" }]\n")
                .find("matches no cell"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = [\"newlib\"]\nexclude = [{ board = \"sim-m0plus\" }]\n")
                .find("not in the suite's boards"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = [\"newlib\"]\nexclude = [{ libcc = \"newlib\" }]\n")
                .find("unknown key 'libcc'"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibc = [\"newlib\"]\nexclude = [{ libc = \"newlib\" }]\n")
                .find("remove every configuration"),
            std::string::npos);
  EXPECT_NE(error_of("[matrix]\nlibcs = [\"newlib\"]\n").find("unknown key 'libcs' in [matrix]"),
            std::string::npos);
}

}  // namespace
}  // namespace fathom::suite

namespace fathom::suite {
namespace {

TEST(AnalysisSpecs, ParsesFairnessAndWorkflowsAndRejectsBadReferences) {
  auto suite = parse_suite(kHead + R"(
[fairness]
operations = ["hkdf_sha256"]
tolerance_percent = 0.25

[[workflow]]
name = "w"
[[workflow.variant]]
name = "v"
steps = [ { name = "s", operations = ["a", "b"] } ]
wire = ["a.public_key"]
stored = ["b.derived_key"]
)", "m.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  ASSERT_TRUE(suite->fairness);
  EXPECT_EQ(suite->fairness->tolerance_percent, 0.25);
  ASSERT_EQ(suite->workflows.size(), 1u);
  const auto& v = suite->workflows[0].variants.at(0);
  EXPECT_EQ(v.steps.at(0).operations, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(operations_named_by_analyses(*suite),
            (std::vector<std::string>{"hkdf_sha256", "a", "b"}));

  auto bad = parse_suite(kHead + R"(
[[workflow]]
name = "w"
[[workflow.variant]]
name = "v"
steps = [ { name = "s", operations = ["a"] } ]
wire = ["a-public_key"]
)", "m.toml");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("is not \"operation.object\""), std::string::npos);
  auto no_ops = parse_suite(kHead + "\n[fairness]\noperations = []\n", "m.toml");
  ASSERT_FALSE(no_ops);
  EXPECT_NE(no_ops.error().message.find("needs 'operations'"), std::string::npos);
  auto tolerance = parse_suite(kHead + "\n[fairness]\noperations = [\"x\"]\ntolerance_percent = \"1\"\n",
                               "m.toml");
  ASSERT_FALSE(tolerance);
  EXPECT_NE(tolerance.error().message.find("must be a number"), std::string::npos);
}

}  // namespace
}  // namespace fathom::suite
