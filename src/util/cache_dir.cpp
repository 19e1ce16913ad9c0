#include "util/cache_dir.h"

#include <cstdlib>

namespace fathom::util {

std::optional<std::string> process_env(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

Result<std::filesystem::path> cache_dir(const EnvLookup& env) {
  std::filesystem::path dir;
  if (auto explicit_dir = env("FATHOM_CACHE_DIR")) {
    dir = *explicit_dir;
  } else if (auto xdg = env("XDG_CACHE_HOME")) {
    dir = std::filesystem::path(*xdg) / "fathom";
  } else if (auto home = env("HOME")) {
    dir = std::filesystem::path(*home) / ".cache" / "fathom";
  } else {
    return fail(
        "no cache directory: none of FATHOM_CACHE_DIR, XDG_CACHE_HOME, HOME is set; "
        "set FATHOM_CACHE_DIR=/path/to/cache");
  }
  std::error_code ec;
  auto absolute = std::filesystem::absolute(dir, ec);
  if (ec) return fail("cache directory " + dir.string() + " is not usable: " + ec.message());
  return absolute.lexically_normal();
}

}  // namespace fathom::util
