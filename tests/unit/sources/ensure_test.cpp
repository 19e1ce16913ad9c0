#include "sources/ensure.h"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace fathom::sources {
namespace {

// ensure() reads the real sources.lock and process environment; only the override path is
// exercised here, so the test needs no network and never touches the user's cache.
class EnsureTest : public testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/fathom-ensure-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
  }
  void TearDown() override {
    unsetenv("FATHOM_SOURCE_MBEDTLS");
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST_F(EnsureTest, OverrideIsReturnedAsIs) {
  setenv("FATHOM_SOURCE_MBEDTLS", dir_.c_str(), 1);
  auto root = ensure("mbedtls");
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(*root, dir_);
}

TEST_F(EnsureTest, MissingOverrideIsAnError) {
  const auto missing = dir_ / "nothing-here";
  setenv("FATHOM_SOURCE_MBEDTLS", missing.c_str(), 1);
  auto root = ensure("mbedtls");
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("FATHOM_SOURCE_MBEDTLS=" + missing.string()),
            std::string::npos)
      << root.error().message;
}

TEST_F(EnsureTest, UnknownSourceIsAnErrorNamingTheLock) {
  auto root = ensure("no-such-library");
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("no source named 'no-such-library'"), std::string::npos);
  EXPECT_NE(root.error().message.find("sources.lock"), std::string::npos);
}

}  // namespace
}  // namespace fathom::sources
