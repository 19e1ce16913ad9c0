#include "build/toolchain.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <optional>
#include <string>

namespace fathom::build {
namespace {

// Sets an environment variable for one test and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_) ::setenv(name_, old_->c_str(), 1);
    else ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(LauncherCommand, NothingWithoutCcache) {
  Toolchain tc;
  EXPECT_EQ(launcher_command(tc), "");
}

TEST(LauncherCommand, PinsTheSettingsThatKeepAHitTheCompiledObject) {
  Toolchain tc;
  tc.ccache = "/opt/cc cache/ccache";
  // The caller's CCACHE_NOHASHDIR is dropped, the directory hashed, no base directory, and the
  // path quoted for the shell ninja runs.
  EXPECT_EQ(launcher_command(tc),
            "env -u CCACHE_NOHASHDIR CCACHE_HASHDIR=1 CCACHE_BASEDIR= '/opt/cc cache/ccache' ");
}

TEST(FindToolchain, FathomCcacheChoosesTheCompilerCache) {
  // find_toolchain asks the cross compiler its version: without one there is nothing to check.
  {
    ScopedEnv off("FATHOM_CCACHE", "0");
    auto tc = find_toolchain();
    if (!tc) GTEST_SKIP() << tc.error().message;
    EXPECT_EQ(tc->ccache, "");
  }
  {
    ScopedEnv named("FATHOM_CCACHE", "/bin/true");
    auto tc = find_toolchain();
    ASSERT_TRUE(tc) << tc.error().message;
    EXPECT_EQ(tc->ccache, "/bin/true");
  }
  {
    ScopedEnv missing("FATHOM_CCACHE", "/nonexistent/ccache");
    auto tc = find_toolchain();
    ASSERT_FALSE(tc);
    EXPECT_NE(tc.error().message.find("FATHOM_CCACHE names '/nonexistent/ccache'"),
              std::string::npos)
        << tc.error().message;
  }
}

}  // namespace
}  // namespace fathom::build
