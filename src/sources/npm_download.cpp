#include "sources/npm_download.h"

#include <fmt/core.h>

#include "util/subprocess.h"

namespace fathom::sources {

util::Result<std::filesystem::path> download_npm_package(const SourceEntry& entry,
                                                         const DownloadDirs& dirs) {
  auto pack =
      util::run_process({"npm", "pack", "--silent", entry.package + "@" + entry.package_version},
                        {.working_directory = dirs.work_dir});
  if (!pack) {
    return util::fail(fmt::format("could not download {} from npm ({}); install npm or set {}",
                                  entry.label(), pack.error().message, entry.env));
  }
  if (pack->exit_code != 0) {
    return util::fail(
        fmt::format("could not download {} from npm (npm pack failed: {}); check "
                    "network access or set {}",
                    entry.label(), util::last_line(pack->stderr_text), entry.env));
  }
  const auto archive = dirs.work_dir / entry.archive;
  if (!std::filesystem::is_regular_file(archive)) {
    return util::fail(
        fmt::format("npm pack {}@{} did not produce {} (it said: {}); check "
                    "'archive' for {} in sources.lock",
                    entry.package, entry.package_version, entry.archive,
                    util::last_line(pack->stdout_text), entry.name));
  }
  return archive;
}

}  // namespace fathom::sources
