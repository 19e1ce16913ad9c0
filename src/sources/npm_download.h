#pragma once
// Downloading a package tarball from the npm registry with `npm pack`.
#include <filesystem>

#include "sources/downloader.h"

namespace fathom::sources {

// Runs `npm pack <package>@<package_version>` in `dirs.work_dir` (npm's own cache is used as
// usual) and returns the path of `entry.archive` there (npm names it "<package>-<version>.tgz";
// its contents unpack to "package/"). Needs npm and network access to the registry.
util::Result<std::filesystem::path> download_npm_package(const SourceEntry& entry,
                                                         const DownloadDirs& dirs);

}  // namespace fathom::sources
