#pragma once
// sources.lock: the pinned third-party sources that firmware images are built from.
//
// One `[[source]]` table per source (see the comments in /sources.lock for the schema). Every
// entry pins the exact archive by SHA-256, so a build never silently uses other code.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::sources {

// Where an archive comes from.
enum class Origin {
  kDebianSource,  // `apt-get source --download-only <package>=<package_version>` from `suite`
  kNpm,           // `npm pack <package>@<package_version>`
};

// The spelling used in sources.lock ("debian-source", "npm").
std::string_view origin_name(Origin origin);

struct SourceEntry {
  std::string name;     // short id used on the command line, e.g. "mbedtls"
  std::string version;  // upstream version, e.g. "3.6.6"
  Origin origin = Origin::kDebianSource;
  std::string package;          // package name in the origin's registry
  std::string package_version;  // exact version in that registry, e.g. "3.6.6-0.1~deb13u1"
  std::string suite;            // Debian suite to fetch from (debian-source only, else empty)
  std::string archive;     // file name of the pinned archive, e.g. "mbedtls_3.6.6.orig.tar.bz2"
  std::string sha256;      // 64 lower-case hex digits of `archive`
  std::string unpacks_to;  // top-level directory inside the archive, e.g. "mbedtls-3.6.6"
  std::string env;         // environment variable that overrides the source root
  int line = 0;            // where the entry starts in the lock file (for messages)

  // "<name> <version>", as used in messages.
  std::string label() const { return name + " " + version; }
};

struct SourceLock {
  std::string path;  // the file it was read from (for messages)
  std::vector<SourceEntry> sources;

  // The entry called `name`, or nullptr.
  const SourceEntry* find(std::string_view name) const;
};

// Parses the text of a lock file. `path` is used only in messages, which look like
// "<path>:<line>:<col>: <what is wrong>". Unknown keys, duplicate names, malformed hashes,
// file names with a '/' and unknown origins are errors.
util::Result<SourceLock> parse_lock(std::string_view text, const std::string& path);

// Reads and parses the lock file at `path`.
util::Result<SourceLock> load_lock(const std::filesystem::path& path);

// The lock file of the source tree this binary was built from (<source dir>/sources.lock).
std::filesystem::path default_lock_path();

}  // namespace fathom::sources
