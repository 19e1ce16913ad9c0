#include "cli/paths.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "util/cache_dir.h"
#include "util/source_dir.h"

namespace fathom::cli {
namespace fs = std::filesystem;

fs::path repository_root() {
  // Absolute: the firmware builds run ninja in their own directories, where a path relative
  // to ours (FATHOM_HOME=., or an executable copied out of its build tree, which finds no
  // marker and falls back to the working directory) would name nothing.
  const char* home = std::getenv("FATHOM_HOME");
  const fs::path root = home && *home ? fs::path(home) : fs::path(fathom::util::source_dir());
  std::error_code ec;
  return root.empty() ? fs::current_path(ec) : fs::absolute(root, ec);
}

fs::path default_suite_path() { return repository_root() / "suites" / "default.toml"; }

util::Result<fs::path> resolve_suite(const std::string& name) {
  if (name.empty()) return default_suite_path();
  if (name.find('/') != std::string::npos || fs::path(name).extension() == ".toml") {
    if (!fs::exists(name))
      return util::fail(fmt::format("suite file '{}' does not exist", name));
    return fs::path(name);
  }
  const fs::path candidate = repository_root() / "suites" / (name + ".toml");
  if (fs::exists(candidate)) return candidate;
  std::vector<std::string> known;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(repository_root() / "suites", ec))
    if (e.path().extension() == ".toml") known.push_back(e.path().stem().string());
  std::sort(known.begin(), known.end());
  return util::fail(fmt::format("unknown suite '{}' (known suites: {}; or give a path to a "
                                ".toml file)",
                                name, fmt::join(known, ", ")));
}

util::Result<fs::path> build_root() {
  auto cache = util::cache_dir();
  if (!cache) return tl::unexpected(cache.error());
  return *cache / "builds";
}

util::Result<fs::path> result_cache_root() {
  auto cache = util::cache_dir();
  if (!cache) return tl::unexpected(cache.error());
  return *cache / "results";
}

}  // namespace fathom::cli
