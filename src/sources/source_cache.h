#pragma once
// The on-disk cache of pinned third-party sources: status, verified fetch, and the root to
// build from.
//
// Layout under the cache root (util::cache_dir()):
//   archives/<archive>                  verified archives, exactly as downloaded
//   sources/<name>-<version>/<unpacks_to>/   the unpacked tree ("source root")
//   sources/<name>-<version>/.fathom-verified  marker: "<sha256>  <archive>" of what was unpacked
//   quarantine/<archive>.<sha256-prefix>  archives whose hash did not match the lock
//   state/                               downloaders' own state (apt package lists)
//   tmp/                                 in-progress downloads and unpacks (never valid trees)
//   .lock                                held while fetching, so processes do not collide
#include <filesystem>
#include <functional>
#include <string>

#include "sources/downloader.h"
#include "sources/source_lock.h"
#include "sources/source_status.h"
#include "util/cache_dir.h"
#include "util/error.h"

namespace fathom::sources {

class SourceCache {
 public:
  // `progress` receives one human-readable line per slow step (download, unpack); it is never
  // called when nothing needs doing.
  using Progress = std::function<void(const std::string& line)>;

  // A cache rooted at `cache_root` (created on first fetch). `env` looks up override
  // variables; `downloader` brings archives in (tests substitute their own).
  explicit SourceCache(std::filesystem::path cache_root, util::EnvLookup env = util::process_env,
                       Downloader downloader = download_from_origin, Progress progress = {});

  // Where `entry` stands, without network access. Hashes the archive only when the unpacked
  // tree has no marker (so it is cheap for a ready source).
  SourceStatus status(const SourceEntry& entry) const;

  // Makes `entry` ready in the cache and returns its source root. Does nothing when the marker
  // says the tree was verified against `entry.sha256`. Otherwise verifies a cached archive (or
  // downloads one), then unpacks into a temporary directory that is renamed into place only
  // once complete. An archive whose SHA-256 differs from the lock is moved to quarantine/ and
  // reported with both hashes. Ignores the env override (see ensure()).
  util::Result<std::filesystem::path> fetch(const SourceEntry& entry);

  // The source root to build from, without fetching: the env override if set (an error if it
  // does not exist), else the cached tree if ready, else an error saying how to fetch it.
  util::Result<std::filesystem::path> root(const SourceEntry& entry) const;

  // The source root to build from, fetching if needed: the env override if set (an error if it
  // does not exist), else fetch(entry).
  util::Result<std::filesystem::path> ensure(const SourceEntry& entry);

  const std::filesystem::path& cache_root() const { return cache_root_; }
  std::filesystem::path archive_path(const SourceEntry& entry) const;
  std::filesystem::path tree_dir(const SourceEntry& entry) const;     // sources/<name>-<version>
  std::filesystem::path source_root(const SourceEntry& entry) const;  // tree_dir/unpacks_to

 private:
  // The override's path if the entry's env variable is set.
  std::optional<std::filesystem::path> override_path(const SourceEntry& entry) const;
  util::Result<std::filesystem::path> override_root(const SourceEntry& entry,
                                                    const std::filesystem::path& path) const;
  // True if the marker records `entry.sha256` and the source root exists.
  bool tree_is_verified(const SourceEntry& entry) const;
  util::Result<void> obtain_verified_archive(const SourceEntry& entry);
  util::Result<void> unpack(const SourceEntry& entry);
  // Moves `file` to quarantine/ and returns its new path (or "" if even that failed).
  std::filesystem::path quarantine(const SourceEntry& entry, const std::filesystem::path& file,
                                   const std::string& actual_sha256);
  void report(const std::string& line) const;

  std::filesystem::path cache_root_;
  util::EnvLookup env_;
  Downloader downloader_;
  Progress progress_;
};

}  // namespace fathom::sources
