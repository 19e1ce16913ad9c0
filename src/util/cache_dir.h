#pragma once
// Where fathom keeps downloaded and derived files between runs.
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "util/error.h"

namespace fathom::util {

// Looks up an environment variable; nullopt if unset. Injected so tests need not touch the
// process environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The real process environment (an empty value counts as unset).
std::optional<std::string> process_env(const std::string& name);

// The cache directory, first match wins:
//   $FATHOM_CACHE_DIR, then $XDG_CACHE_HOME/fathom, then $HOME/.cache/fathom.
// Relative values are taken relative to the current directory and made absolute. Fails only if
// none of the three variables is set. The directory is not created here.
Result<std::filesystem::path> cache_dir(const EnvLookup& env = process_env);

}  // namespace fathom::util
