#include "sources/ensure.h"

#include <fmt/core.h>

#include <cstdio>

#include "sources/source_cache.h"
#include "sources/source_lock.h"
#include "util/cache_dir.h"

namespace fathom::sources {

util::Result<std::filesystem::path> ensure(const std::string& name) {
  auto lock = load_lock(default_lock_path());
  if (!lock) return tl::unexpected(lock.error());
  const SourceEntry* entry = lock->find(name);
  if (entry == nullptr) {
    return util::fail(fmt::format("no source named '{}' in {}", name, lock->path));
  }
  auto cache_root = util::cache_dir();
  if (!cache_root) return tl::unexpected(cache_root.error());
  SourceCache cache(*cache_root, util::process_env, download_from_origin,
                    [](const std::string& line) { fmt::print(stderr, "fathom: {}\n", line); });
  return cache.ensure(*entry);
}

}  // namespace fathom::sources
