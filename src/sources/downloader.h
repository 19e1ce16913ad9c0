#pragma once
// The step that brings a pinned archive onto the machine. Verification, unpacking and caching
// are the SourceCache's job; a downloader only downloads.
#include <filesystem>
#include <functional>

#include "sources/source_lock.h"
#include "util/error.h"

namespace fathom::sources {

struct DownloadDirs {
  // An empty directory, private to this download, where the archive is to be put.
  std::filesystem::path work_dir;
  // A directory kept between downloads for the tool's own state (e.g. apt's package lists).
  std::filesystem::path state_dir;
};

// Puts the archive `entry.archive` into `dirs.work_dir` and returns its full path. It does NOT
// check the hash. Errors say what failed and how to get around it (the entry's env override).
using Downloader = std::function<util::Result<std::filesystem::path>(const SourceEntry& entry,
                                                                     const DownloadDirs& dirs)>;

// Dispatches on `entry.origin` to the real downloaders (Debian source packages, npm).
util::Result<std::filesystem::path> download_from_origin(const SourceEntry& entry,
                                                         const DownloadDirs& dirs);

}  // namespace fathom::sources
