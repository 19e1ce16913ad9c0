#include "sources/source_cache.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <map>
#include <sstream>

#include "util/sha256.h"
#include "util/subprocess.h"

namespace fathom::sources {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A temporary cache plus a small real archive "demo_1.0.orig.tar.bz2" that unpacks to
// "demo-1.0/", made with tar (as `tar -cjf demo_1.0.orig.tar.bz2 demo-1.0`).
class SourceCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    char dir[] = "/tmp/fathom-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    base_ = dir;
    const fs::path tree = base_ / "upstream" / "demo-1.0";
    fs::create_directories(tree / "include");
    std::ofstream(tree / "README") << "demo library\n";
    std::ofstream(tree / "include" / "demo.h") << "#define DEMO 1\n";
    good_archive_ = base_ / "good" / "demo_1.0.orig.tar.bz2";
    fs::create_directories(good_archive_.parent_path());
    auto tar = util::run_process(
        {"tar", "-cjf", good_archive_.string(), "-C", (base_ / "upstream").string(), "demo-1.0"});
    ASSERT_TRUE(tar && tar->exit_code == 0) << (tar ? tar->stderr_text : tar.error().message);
    bad_archive_ = base_ / "bad" / "demo_1.0.orig.tar.bz2";
    fs::create_directories(bad_archive_.parent_path());
    std::ofstream(bad_archive_) << "not the archive the lock pins\n";

    entry_.name = "demo";
    entry_.version = "1.0";
    entry_.origin = Origin::kDebianSource;
    entry_.package = "demo";
    entry_.package_version = "1.0-1";
    entry_.suite = "trixie";
    entry_.archive = "demo_1.0.orig.tar.bz2";
    entry_.sha256 = *util::sha256_file(good_archive_);
    entry_.unpacks_to = "demo-1.0";
    entry_.env = "FATHOM_SOURCE_DEMO";
    cache_root_ = base_ / "cache";
  }
  void TearDown() override { fs::remove_all(base_); }

  // A downloader that copies `from` into the work directory and counts its calls.
  Downloader copy_from(fs::path from) {
    return
        [this, from](const SourceEntry& entry, const DownloadDirs& dirs) -> util::Result<fs::path> {
          ++downloads_;
          EXPECT_TRUE(fs::is_directory(dirs.work_dir));
          EXPECT_TRUE(fs::is_empty(dirs.work_dir));
          fs::copy_file(from, dirs.work_dir / entry.archive);
          return dirs.work_dir / entry.archive;
        };
  }
  Downloader offline() {
    return [this](const SourceEntry&, const DownloadDirs&) -> util::Result<fs::path> {
      ++downloads_;
      return util::fail("offline in this test");
    };
  }
  SourceCache cache(Downloader downloader, std::map<std::string, std::string> env = {}) {
    return SourceCache(
        cache_root_,
        [env](const std::string& name) -> std::optional<std::string> {
          auto it = env.find(name);
          if (it == env.end()) return std::nullopt;
          return it->second;
        },
        std::move(downloader));
  }
  void place_in_cache(const fs::path& archive) {
    fs::create_directories(cache_root_ / "archives");
    fs::copy_file(archive, cache_root_ / "archives" / entry_.archive);
  }

  fs::path base_, good_archive_, bad_archive_, cache_root_;
  SourceEntry entry_;
  int downloads_ = 0;
};

TEST_F(SourceCacheTest, MissingThenFetchedThenReadyWithoutDownloadingAgain) {
  auto sources = cache(copy_from(good_archive_));
  EXPECT_EQ(sources.status(entry_).state, SourceState::kMissing);
  EXPECT_FALSE(sources.root(entry_));

  auto root = sources.fetch(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(*root, cache_root_ / "sources" / "demo-1.0" / "demo-1.0");
  EXPECT_EQ(read(*root / "include" / "demo.h"), "#define DEMO 1\n");
  EXPECT_EQ(read(cache_root_ / "sources" / "demo-1.0" / ".fathom-verified"),
            entry_.sha256 + "  demo_1.0.orig.tar.bz2\n");
  EXPECT_TRUE(fs::is_regular_file(cache_root_ / "archives" / entry_.archive));
  EXPECT_EQ(downloads_, 1);

  auto status = sources.status(entry_);
  EXPECT_EQ(status.state, SourceState::kReady);
  EXPECT_EQ(status.path, *root);
  EXPECT_EQ(*sources.root(entry_), *root);
  auto again = sources.fetch(entry_);
  ASSERT_TRUE(again);
  EXPECT_EQ(*again, *root);
  EXPECT_EQ(downloads_, 1);
  // Nothing half-done is left behind.
  EXPECT_TRUE(!fs::exists(cache_root_ / "tmp") || fs::is_empty(cache_root_ / "tmp"));
}

TEST_F(SourceCacheTest, ArchiveAlreadyInCacheIsVerifiedAndUnpackedOffline) {
  place_in_cache(good_archive_);
  auto sources = cache(offline());
  EXPECT_EQ(sources.status(entry_).state, SourceState::kDownloaded);
  auto root = sources.fetch(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(downloads_, 0);
  EXPECT_EQ(sources.status(entry_).state, SourceState::kReady);
}

TEST_F(SourceCacheTest, CorruptCachedArchiveIsReportedThenQuarantinedAndReplaced) {
  place_in_cache(bad_archive_);
  const std::string bad_sha = *util::sha256_file(bad_archive_);
  auto sources = cache(copy_from(good_archive_));
  auto status = sources.status(entry_);
  EXPECT_EQ(status.state, SourceState::kHashMismatch);
  EXPECT_NE(status.detail.find(bad_sha), std::string::npos) << status.detail;
  EXPECT_NE(status.detail.find(entry_.sha256), std::string::npos) << status.detail;

  auto root = sources.fetch(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(downloads_, 1);
  EXPECT_TRUE(fs::is_regular_file(cache_root_ / "quarantine" /
                                  (entry_.archive + "." + bad_sha.substr(0, 12))));
  EXPECT_EQ(sources.status(entry_).state, SourceState::kReady);
}

TEST_F(SourceCacheTest, CorruptDownloadIsAnErrorWithBothHashesAndLeavesNothingUsable) {
  const std::string bad_sha = *util::sha256_file(bad_archive_);
  auto sources = cache(copy_from(bad_archive_));
  auto root = sources.fetch(entry_);
  ASSERT_FALSE(root);
  const auto& message = root.error().message;
  EXPECT_EQ(message.rfind("demo 1.0: ", 0), 0u) << message;
  EXPECT_NE(message.find(bad_sha), std::string::npos) << message;
  EXPECT_NE(message.find(entry_.sha256), std::string::npos) << message;
  EXPECT_NE(message.find("quarantine"), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(cache_root_ / "archives" / entry_.archive));
  EXPECT_FALSE(fs::exists(cache_root_ / "sources" / "demo-1.0"));
  EXPECT_EQ(sources.status(entry_).state, SourceState::kMissing);
  EXPECT_FALSE(sources.root(entry_));
}

TEST_F(SourceCacheTest, LockPinningAnotherHashInvalidatesTheUnpackedTree) {
  auto sources = cache(copy_from(good_archive_));
  ASSERT_TRUE(sources.fetch(entry_));
  SourceEntry changed = entry_;
  changed.sha256 = std::string(64, 'a');
  auto status = sources.status(changed);
  EXPECT_EQ(status.state, SourceState::kHashMismatch);
  EXPECT_NE(status.detail.find(entry_.sha256), std::string::npos) << status.detail;
  EXPECT_FALSE(sources.root(changed));
  // Re-fetching checks the cached archive against the new pin (it fails: moved aside),
  // downloads again, and that download fails verification too.
  auto root = sources.fetch(changed);
  ASSERT_FALSE(root);
  EXPECT_EQ(downloads_, 2);
  EXPECT_NE(root.error().message.find(changed.sha256), std::string::npos);
  EXPECT_FALSE(sources.root(changed));
}

TEST_F(SourceCacheTest, InterruptedFetchLeftoversAreNotMistakenForAValidTree) {
  // As if a previous run died mid-unpack: a temp dir and a tree without a marker.
  fs::create_directories(cache_root_ / "tmp" / "unpack-demo-abc123" / "demo-1.0");
  fs::create_directories(cache_root_ / "sources" / "demo-1.0" / "demo-1.0");
  auto sources = cache(copy_from(good_archive_));
  EXPECT_EQ(sources.status(entry_).state, SourceState::kMissing);
  EXPECT_FALSE(sources.root(entry_));
  auto root = sources.fetch(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_TRUE(fs::is_regular_file(*root / "README"));
  EXPECT_FALSE(fs::exists(cache_root_ / "tmp" / "unpack-demo-abc123"));
}

TEST_F(SourceCacheTest, WrongUnpacksToIsAnErrorListingWhatIsInside) {
  entry_.unpacks_to = "demo-2.0";
  auto sources = cache(copy_from(good_archive_));
  auto root = sources.fetch(entry_);
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("did not unpack to demo-2.0/ (it contains: demo-1.0)"),
            std::string::npos)
      << root.error().message;
  EXPECT_FALSE(fs::exists(cache_root_ / "sources" / "demo-1.0"));
}

TEST_F(SourceCacheTest, DownloadFailureIsPassedOn) {
  auto sources = cache(offline());
  auto root = sources.fetch(entry_);
  ASSERT_FALSE(root);
  EXPECT_EQ(root.error().message, "offline in this test");
  EXPECT_EQ(sources.status(entry_).state, SourceState::kMissing);
}

TEST_F(SourceCacheTest, EnvOverrideWinsAndIsNeverDownloaded) {
  const fs::path mine = base_ / "upstream" / "demo-1.0";
  auto sources = cache(offline(), {{"FATHOM_SOURCE_DEMO", mine.string()}});
  auto status = sources.status(entry_);
  EXPECT_EQ(status.state, SourceState::kOverridden);
  EXPECT_EQ(status.path, mine);
  EXPECT_EQ(*sources.root(entry_), mine);
  auto root = sources.ensure(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(*root, mine);
  EXPECT_EQ(downloads_, 0);
}

TEST_F(SourceCacheTest, EnvOverrideToNothingIsAnError) {
  auto sources = cache(copy_from(good_archive_), {{"FATHOM_SOURCE_DEMO", "/nonexistent/demo"}});
  auto status = sources.status(entry_);
  EXPECT_EQ(status.state, SourceState::kOverrideMissing);
  EXPECT_EQ(status.path, "/nonexistent/demo");
  auto root = sources.ensure(entry_);
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("FATHOM_SOURCE_DEMO=/nonexistent/demo is not a directory"),
            std::string::npos)
      << root.error().message;
  EXPECT_EQ(downloads_, 0);
}

TEST_F(SourceCacheTest, EnsureFetchesWhenNotOverridden) {
  auto sources = cache(copy_from(good_archive_));
  auto root = sources.ensure(entry_);
  ASSERT_TRUE(root) << root.error().message;
  EXPECT_EQ(*root, sources.source_root(entry_));
  EXPECT_EQ(downloads_, 1);
}

TEST_F(SourceCacheTest, RootOfMissingSourceSaysHowToGetIt) {
  auto sources = cache(offline());
  auto root = sources.root(entry_);
  ASSERT_FALSE(root);
  EXPECT_NE(root.error().message.find("fathom sources --fetch"), std::string::npos);
  EXPECT_NE(root.error().message.find("FATHOM_SOURCE_DEMO="), std::string::npos);
}

}  // namespace
}  // namespace fathom::sources
