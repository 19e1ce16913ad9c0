#include "sources/source_cache.h"

#include <fmt/core.h>
#include <stdlib.h>

#include <fstream>

#include "sources/cache_lock.h"
#include "util/sha256.h"
#include "util/subprocess.h"

namespace fathom::sources {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMarkerName = ".fathom-verified";

std::string short_hash(const std::string& sha256) { return sha256.substr(0, 12); }

// The hash recorded in a marker file, or "" if it is absent or unreadable.
std::string read_marker(const fs::path& marker) {
  std::ifstream in(marker);
  std::string hash;
  in >> hash;
  return util::is_sha256_hex(hash) ? hash : std::string();
}

// A new, empty, uniquely named directory under `parent`.
util::Result<fs::path> make_temp_dir(const fs::path& parent, const std::string& prefix) {
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) return util::fail(fmt::format("cannot create {}: {}", parent.string(), ec.message()));
  std::string pattern = (parent / (prefix + "XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    return util::fail(fmt::format("cannot create a temporary directory in {}", parent.string()));
  }
  return fs::path(pattern);
}

// Removes a directory tree on scope exit unless released.
class TempDir {
 public:
  explicit TempDir(fs::path path) : path_(std::move(path)) {}
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string list_dir(const fs::path& dir) {
  std::string names;
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    if (!names.empty()) names += ", ";
    names += item.path().filename().string();
  }
  return names.empty() ? "nothing" : names;
}

}  // namespace

SourceCache::SourceCache(fs::path cache_root, util::EnvLookup env, Downloader downloader,
                         Progress progress)
    : cache_root_(std::move(cache_root)),
      env_(std::move(env)),
      downloader_(std::move(downloader)),
      progress_(std::move(progress)) {}

fs::path SourceCache::archive_path(const SourceEntry& entry) const {
  return cache_root_ / "archives" / entry.archive;
}

fs::path SourceCache::tree_dir(const SourceEntry& entry) const {
  return cache_root_ / "sources" / (entry.name + "-" + entry.version);
}

fs::path SourceCache::source_root(const SourceEntry& entry) const {
  return tree_dir(entry) / entry.unpacks_to;
}

std::optional<fs::path> SourceCache::override_path(const SourceEntry& entry) const {
  if (auto value = env_(entry.env)) return fs::path(*value);
  return std::nullopt;
}

util::Result<fs::path> SourceCache::override_root(const SourceEntry& entry,
                                                  const fs::path& path) const {
  if (!fs::is_directory(path)) {
    return util::fail(
        fmt::format("{}={} is not a directory; point it at an unpacked {} tree "
                    "(like {}) or unset it to use the pinned download",
                    entry.env, path.string(), entry.label(), entry.unpacks_to));
  }
  return path;
}

bool SourceCache::tree_is_verified(const SourceEntry& entry) const {
  return read_marker(tree_dir(entry) / kMarkerName) == entry.sha256 &&
         fs::is_directory(source_root(entry));
}

SourceStatus SourceCache::status(const SourceEntry& entry) const {
  if (auto path = override_path(entry)) {
    if (fs::is_directory(*path)) return {SourceState::kOverridden, *path, ""};
    return {SourceState::kOverrideMissing, *path,
            fmt::format("{}={} is not a directory; point it at an unpacked {} tree (like {}) "
                        "or unset it",
                        entry.env, path->string(), entry.label(), entry.unpacks_to)};
  }
  const auto root = source_root(entry);
  const std::string marked = read_marker(tree_dir(entry) / kMarkerName);
  if (!marked.empty()) {
    if (marked == entry.sha256 && fs::is_directory(root)) return {SourceState::kReady, root, ""};
    if (marked != entry.sha256) {
      return {SourceState::kHashMismatch, root,
              fmt::format("the cached tree was unpacked from an archive with SHA-256 {}, but "
                          "sources.lock pins {}; run `fathom sources --fetch` to replace it",
                          marked, entry.sha256)};
    }
  }
  const auto archive = archive_path(entry);
  if (!fs::is_regular_file(archive)) return {SourceState::kMissing, root, ""};
  auto actual = util::sha256_file(archive);
  if (!actual) return {SourceState::kHashMismatch, root, actual.error().message};
  if (*actual != entry.sha256) {
    return {SourceState::kHashMismatch, root,
            fmt::format("{} has SHA-256 {}, but sources.lock pins {}; run `fathom sources "
                        "--fetch` to download it again",
                        archive.string(), *actual, entry.sha256)};
  }
  return {SourceState::kDownloaded, root, ""};
}

util::Result<fs::path> SourceCache::root(const SourceEntry& entry) const {
  if (auto path = override_path(entry)) return override_root(entry, *path);
  if (tree_is_verified(entry)) return source_root(entry);
  return util::fail(
      fmt::format("{} is not in the source cache {}; run `fathom sources --fetch` "
                  "or set {}=/path/to/{}",
                  entry.label(), cache_root_.string(), entry.env, entry.unpacks_to));
}

util::Result<fs::path> SourceCache::ensure(const SourceEntry& entry) {
  if (auto path = override_path(entry)) return override_root(entry, *path);
  return fetch(entry);
}

util::Result<fs::path> SourceCache::fetch(const SourceEntry& entry) {
  if (tree_is_verified(entry)) return source_root(entry);  // the fast path: no lock, no hashing

  auto lock = CacheLock::acquire(cache_root_ / ".lock");
  if (!lock) return tl::unexpected(lock.error());
  // Another process may have finished the job while this one waited for the lock.
  if (tree_is_verified(entry)) return source_root(entry);

  // Holding the lock, nothing else is in progress: leftovers of interrupted runs can go.
  std::error_code ec;
  fs::remove_all(cache_root_ / "tmp", ec);

  if (auto archive = obtain_verified_archive(entry); !archive) {
    return tl::unexpected(archive.error());
  }
  if (auto unpacked = unpack(entry); !unpacked) return tl::unexpected(unpacked.error());
  return source_root(entry);
}

util::Result<void> SourceCache::obtain_verified_archive(const SourceEntry& entry) {
  const auto archive = archive_path(entry);
  if (fs::is_regular_file(archive)) {
    auto actual = util::sha256_file(archive);
    if (!actual) return tl::unexpected(actual.error());
    if (*actual == entry.sha256) return {};
    const auto moved = quarantine(entry, archive, *actual);
    report(
        fmt::format("{}: cached {} had SHA-256 {} instead of {}; moved it to {} and "
                    "downloading again",
                    entry.label(), entry.archive, short_hash(*actual), short_hash(entry.sha256),
                    moved.string()));
  }

  auto work = make_temp_dir(cache_root_ / "tmp", "download-" + entry.name + "-");
  if (!work) return tl::unexpected(work.error());
  TempDir work_dir(*work);
  report(entry.origin == Origin::kNpm
             ? fmt::format("fetching {} from npm ({}@{})", entry.label(), entry.package,
                           entry.package_version)
             : fmt::format("fetching {} from the Debian archive (source package {}={}, {})",
                           entry.label(), entry.package, entry.package_version, entry.suite));
  auto downloaded = downloader_(entry, DownloadDirs{work_dir.path(), cache_root_ / "state"});
  if (!downloaded) return tl::unexpected(downloaded.error());

  auto actual = util::sha256_file(*downloaded);
  if (!actual) return tl::unexpected(actual.error());
  if (*actual != entry.sha256) {
    const auto moved = quarantine(entry, *downloaded, *actual);
    return util::fail(fmt::format(
        "{}: downloaded {} has SHA-256 {} but sources.lock pins {}; the file was moved to {}. "
        "Retry `fathom sources --fetch` (the download may be corrupt); if upstream really "
        "changed the archive, check it and update sha256 in sources.lock",
        entry.label(), entry.archive, *actual, entry.sha256,
        moved.empty() ? std::string("(removed)") : moved.string()));
  }

  std::error_code ec;
  fs::create_directories(archive.parent_path(), ec);
  fs::rename(*downloaded, archive, ec);
  if (ec) {
    return util::fail(fmt::format("cannot move {} into {}: {}", downloaded->string(),
                                  archive.string(), ec.message()));
  }
  return {};
}

util::Result<void> SourceCache::unpack(const SourceEntry& entry) {
  report(fmt::format("unpacking {}", entry.archive));
  auto temp = make_temp_dir(cache_root_ / "tmp", "unpack-" + entry.name + "-");
  if (!temp) return tl::unexpected(temp.error());
  TempDir unpack_dir(*temp);

  auto tar = util::run_process({"tar", "-x", "--no-same-owner", "-f", archive_path(entry).string(),
                                "-C", unpack_dir.path().string()});
  if (!tar) return tl::unexpected(tar.error());
  if (tar->exit_code != 0) {
    return util::fail(
        fmt::format("cannot unpack {} (tar: {}); is bzip2/xz installed? run "
                    "scripts/setup.sh",
                    archive_path(entry).string(), util::last_line(tar->stderr_text)));
  }
  if (!fs::is_directory(unpack_dir.path() / entry.unpacks_to)) {
    return util::fail(
        fmt::format("{} did not unpack to {}/ (it contains: {}); check "
                    "'unpacks_to' for {} in sources.lock",
                    entry.archive, entry.unpacks_to, list_dir(unpack_dir.path()), entry.name));
  }
  {
    std::ofstream marker(unpack_dir.path() / kMarkerName);
    marker << entry.sha256 << "  " << entry.archive << "\n";
    if (!marker) return util::fail("cannot write the marker in " + unpack_dir.path().string());
  }

  // Swap the finished tree into place: a reader sees either no tree or a complete one.
  const auto dest = tree_dir(entry);
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (fs::exists(dest)) {
    const auto old = unpack_dir.path().string() + ".old";
    fs::rename(dest, old, ec);
    if (ec) return util::fail(fmt::format("cannot replace {}: {}", dest.string(), ec.message()));
    fs::remove_all(old, ec);
  }
  fs::rename(unpack_dir.path(), dest, ec);
  if (ec) {
    return util::fail(
        fmt::format("cannot move the unpacked tree to {}: {}", dest.string(), ec.message()));
  }
  return {};
}

fs::path SourceCache::quarantine(const SourceEntry& entry, const fs::path& file,
                                 const std::string& actual_sha256) {
  const auto dir = cache_root_ / "quarantine";
  const auto dest = dir / (entry.archive + "." + short_hash(actual_sha256));
  std::error_code ec;
  fs::create_directories(dir, ec);
  fs::rename(file, dest, ec);
  if (!ec) return dest;
  fs::remove(file, ec);
  return {};
}

void SourceCache::report(const std::string& line) const {
  if (progress_) progress_(line);
}

}  // namespace fathom::sources
