#pragma once
// The one call other commands make before building against a third-party source.
#include <filesystem>
#include <string>

#include "util/error.h"

namespace fathom::sources {

// The source root of the source `name` in the default lock (sources::default_lock_path()):
// the entry's env override if set (an error if it does not exist), else the verified tree in
// the default cache (util::cache_dir()), fetching and unpacking it first if needed (progress
// lines go to stderr). Fast and offline when the source is already there.
util::Result<std::filesystem::path> ensure(const std::string& name);

}  // namespace fathom::sources
