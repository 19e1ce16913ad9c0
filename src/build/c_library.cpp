#include "build/c_library.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

#include "model/suite.h"

namespace fathom::build {

util::Result<LibcFlags> libc_flags(std::string_view libc) {
  // Debian's gcc-arm-none-eabi finds nano.specs and nosys.specs in its own lib directory and
  // picolibc-arm-none-eabi installs picolibc.specs next to gcc's specs, so plain names work.
  if (libc == "newlib") return LibcFlags{{}, {"--specs=nosys.specs"}};
  if (libc == "newlib-nano")
    return LibcFlags{{"--specs=nano.specs"}, {"--specs=nano.specs", "--specs=nosys.specs"}};
  if (libc == "picolibc")
    // picolibc.specs links libc.a (allocator, string functions, TLS helpers) without an OS
    // layer, which the firmware does not need: it writes to the console through the board.
    return LibcFlags{{"--specs=picolibc.specs"}, {"--specs=picolibc.specs", "-nostartfiles"}};
  return util::fail(fmt::format("unknown C library '{}' (use one of: {})", libc,
                                fmt::join(std::begin(model::kLibcNames),
                                          std::end(model::kLibcNames), ", ")));
}

std::optional<std::string> detect_libc(const std::function<bool(std::string_view)>& has_symbol) {
  if (has_symbol("_malloc_r")) {
    if (has_symbol("__malloc_av_")) return "newlib";
    if (has_symbol("__malloc_free_list")) return "newlib-nano";
    return std::nullopt;
  }
  if (has_symbol("__malloc_sbrk_top")) return "picolibc";
  return std::nullopt;
}

util::Result<void> check_libc(std::string_view configuration, std::string_view libc,
                              const std::function<bool(std::string_view)>& has_symbol) {
  const auto found = detect_libc(has_symbol);
  if (found && *found == libc) return {};
  if (!found)
    return util::fail(fmt::format(
        "configuration '{}' claims C library '{}', but the linked image has no allocator "
        "fathom recognises (expected malloc from newlib, newlib-nano or picolibc): check the "
        "libc link flags (build/c_library.cpp)",
        configuration, libc));
  return util::fail(fmt::format(
      "configuration '{}' claims C library '{}', but the linked image contains {}: check the "
      "libc link flags (build/c_library.cpp)",
      configuration, libc, *found));
}

}  // namespace fathom::build
