#include "cli/output_directory.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fathom::cli {
namespace {

namespace fs = std::filesystem;

class OutputDirectoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (std::string("fathom-output-directory-") +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OutputDirectoryTest, DirectoriesAreMadeAndReused) {
  const fs::path out = dir_ / "a" / "results";
  EXPECT_TRUE(check_output_directory(out.string()).has_value());
  EXPECT_FALSE(fs::exists(out));  // checking creates nothing
  auto made = make_output_directory(out.string());
  ASSERT_TRUE(made.has_value()) << made.error().message;
  EXPECT_TRUE(fs::is_directory(out));
  EXPECT_TRUE(make_output_directory(out.string()).has_value());  // an existing directory
  // A name with a dot that is no file extension of fathom's is a directory too.
  EXPECT_TRUE(check_output_directory((dir_ / "run.2024-05").string()).has_value());
}

TEST_F(OutputDirectoryTest, AnExistingFileIsAUsageError) {
  const fs::path file = dir_ / "notes";
  std::ofstream(file) << "x";
  auto got = make_output_directory(file.string());
  ASSERT_FALSE(got.has_value());
  EXPECT_TRUE(got.error().is_usage);
  EXPECT_EQ(got.error().message,
            "--out '" + file.string() +
                "' is a file, not a directory; --out names a directory, and fathom writes its "
                "files into it (run and merge: results.json and results.<format>; profile: one "
                "file per --format). Give a directory, e.g. --out " +
                (dir_ / "results").string());
  EXPECT_TRUE(fs::is_regular_file(file));
}

TEST_F(OutputDirectoryTest, AMissingFileNameIsAUsageError) {
  for (const char* name : {"results.json", "profile.folded", "out.csv", "t.md"}) {
    const fs::path out = dir_ / name;
    auto got = make_output_directory(out.string());
    ASSERT_FALSE(got.has_value()) << name;
    EXPECT_TRUE(got.error().is_usage);
    EXPECT_NE(got.error().message.find("' looks like a file name; --out names a directory"),
              std::string::npos)
        << got.error().message;
    EXPECT_FALSE(fs::exists(out)) << name;
  }
  EXPECT_FALSE(check_output_directory("").has_value());
}

}  // namespace
}  // namespace fathom::cli
