// cli::repository_root is absolute whatever FATHOM_HOME says: the firmware builds run ninja in
// their own directories, where a relative root named nothing (a library build failed with
// "fathom_mbedtls_platform.h: No such file or directory").
#include "cli/paths.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

namespace fathom::cli {
namespace {

namespace fs = std::filesystem;

class FathomHome : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* h = std::getenv("FATHOM_HOME")) saved_ = h;
  }
  void TearDown() override {
    if (saved_) setenv("FATHOM_HOME", saved_->c_str(), 1);
    else unsetenv("FATHOM_HOME");
  }
  std::optional<std::string> saved_;
};

TEST_F(FathomHome, ARelativeHomeIsMadeAbsolute) {
  setenv("FATHOM_HOME", ".", 1);
  const fs::path root = repository_root();
  EXPECT_TRUE(root.is_absolute()) << root;
  EXPECT_TRUE(fs::equivalent(root, fs::current_path()));
  setenv("FATHOM_HOME", "some/where", 1);
  EXPECT_EQ(repository_root(), fs::current_path() / "some/where");
}

TEST_F(FathomHome, WithoutItTheRootIsAbsoluteToo) {
  unsetenv("FATHOM_HOME");
  EXPECT_TRUE(repository_root().is_absolute()) << repository_root();
}

}  // namespace
}  // namespace fathom::cli
