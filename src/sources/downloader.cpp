#include "sources/downloader.h"

#include "sources/debian_source_download.h"
#include "sources/npm_download.h"

namespace fathom::sources {

util::Result<std::filesystem::path> download_from_origin(const SourceEntry& entry,
                                                         const DownloadDirs& dirs) {
  switch (entry.origin) {
    case Origin::kDebianSource:
      return download_debian_source(entry, dirs);
    case Origin::kNpm:
      return download_npm_package(entry, dirs);
  }
  return util::fail("unknown origin for " + entry.label());
}

}  // namespace fathom::sources
