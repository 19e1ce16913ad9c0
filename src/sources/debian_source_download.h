#pragma once
// Downloading an archive from a Debian source package with apt-get, using the machine's own
// mirror but a private package list, so the system's apt state is never touched.
#include <filesystem>

#include "sources/apt_mirror.h"
#include "sources/downloader.h"

namespace fathom::sources {

// The contents of a private sources.list: deb-src lines for `suite` (and `suite`-security when
// `mirror` has a security archive), component main, signed by the Debian archive keyring.
std::string debian_source_list(const DebianMirror& mirror, const std::string& suite);

// Runs `apt-get update` and `apt-get source --download-only <package>=<package_version>` with
// its lists and caches under `dirs.state_dir` and its download in `dirs.work_dir`, and returns
// the path of `entry.archive` there. The mirror is discovered from `apt_etc`. Needs apt-get and
// dpkg-dev (scripts/setup.sh installs them) and network access to the mirror.
util::Result<std::filesystem::path> download_debian_source(
    const SourceEntry& entry, const DownloadDirs& dirs,
    const std::filesystem::path& apt_etc = "/etc/apt");

}  // namespace fathom::sources
