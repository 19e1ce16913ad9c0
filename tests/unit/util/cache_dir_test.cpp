#include "util/cache_dir.h"

#include <gtest/gtest.h>

#include <map>

namespace fathom::util {
namespace {

EnvLookup fake_env(std::map<std::string, std::string> vars) {
  return [vars](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(CacheDir, ExplicitVariableWins) {
  auto dir = cache_dir(fake_env(
      {{"FATHOM_CACHE_DIR", "/srv/cache"}, {"XDG_CACHE_HOME", "/x"}, {"HOME", "/home/u"}}));
  ASSERT_TRUE(dir);
  EXPECT_EQ(*dir, "/srv/cache");
}

TEST(CacheDir, XdgCacheHomeBeforeHome) {
  auto dir = cache_dir(fake_env({{"XDG_CACHE_HOME", "/x/cache"}, {"HOME", "/home/u"}}));
  ASSERT_TRUE(dir);
  EXPECT_EQ(*dir, "/x/cache/fathom");
}

TEST(CacheDir, DefaultsToDotCacheInHome) {
  auto dir = cache_dir(fake_env({{"HOME", "/home/u"}}));
  ASSERT_TRUE(dir);
  EXPECT_EQ(*dir, "/home/u/.cache/fathom");
}

TEST(CacheDir, RelativePathBecomesAbsolute) {
  auto dir = cache_dir(fake_env({{"FATHOM_CACHE_DIR", "rel/cache"}}));
  ASSERT_TRUE(dir);
  EXPECT_TRUE(dir->is_absolute());
  EXPECT_EQ(dir->filename(), "cache");
}

TEST(CacheDir, NothingSetIsAnErrorSayingWhatToSet) {
  auto dir = cache_dir(fake_env({}));
  ASSERT_FALSE(dir);
  EXPECT_NE(dir.error().message.find("FATHOM_CACHE_DIR"), std::string::npos);
}

}  // namespace
}  // namespace fathom::util
