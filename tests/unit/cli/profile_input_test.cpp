#include "cli/profile_input.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fathom::cli {
namespace {

namespace fs = std::filesystem;

class ProfileInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fathom-profile-input-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path.string();
  }

  fs::path dir_;
};

TEST_F(ProfileInputTest, TheElfMagicDecidesNotTheName) {
  EXPECT_EQ(classify_profile_input(write("firmware", std::string("\x7f"
                                                                 "ELF\x01\x01\x01",
                                                                 7))),
            ProfileInput::kElf);
  EXPECT_EQ(classify_profile_input(write("odd.toml", std::string("\x7f"
                                                                 "ELF",
                                                                 4))),
            ProfileInput::kElf);
  const std::string fake = write("fake.elf", "hello\n");
  auto got = classify_profile_input(fake);
  ASSERT_FALSE(got.has_value());
  EXPECT_TRUE(got.error().is_usage);
  EXPECT_EQ(got.error().message,
            fake +
                " is not an ELF file (first bytes 68 65 6c 6c 6f 0a \"hello.\"; an ELF starts "
                "with 7f 45 4c 46); give a bare-metal ELF file, or a suite name or .toml suite "
                "file with --op");
}

TEST_F(ProfileInputTest, SuitesStayAsTheyWere) {
  EXPECT_EQ(classify_profile_input(""), ProfileInput::kSuite);
  EXPECT_EQ(classify_profile_input("default"), ProfileInput::kSuite);
  EXPECT_EQ(classify_profile_input("no-such-suite"), ProfileInput::kSuite);  // resolve_suite says
  EXPECT_EQ(classify_profile_input(write("s.toml", "[suite]\nname = \"s\"\n")),
            ProfileInput::kSuite);
}

TEST_F(ProfileInputTest, MissingEmptyAndDirectoryAreSaidSo) {
  const std::string missing = (dir_ / "missing.elf").string();
  auto got = classify_profile_input(missing);
  ASSERT_FALSE(got.has_value());
  EXPECT_TRUE(got.error().is_usage);
  EXPECT_EQ(got.error().message, missing + ": no such file");
  EXPECT_EQ(classify_profile_input("missing.elf").error().message, "missing.elf: no such file");

  const std::string empty = write("empty", "");
  EXPECT_EQ(classify_profile_input(empty).error().message,
            empty +
                " is empty, not an ELF file; give a bare-metal ELF file, or a suite name or "
                ".toml suite file with --op");
  auto directory = classify_profile_input(dir_.string());
  ASSERT_FALSE(directory.has_value());
  EXPECT_NE(directory.error().message.find("is a directory, not an ELF file"), std::string::npos);
}

}  // namespace
}  // namespace fathom::cli
