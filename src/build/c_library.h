#pragma once
// The C library axis of a configuration (model::Configuration::libc): the compiler and linker
// flags that select newlib, newlib-nano or picolibc with Debian's arm-none-eabi packages, and
// the check that a linked image really contains the one it claims.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::build {

struct LibcFlags {
  // For every object of the image, the library archive included: the libc's headers
  // (nano.specs and picolibc.specs add their include directories; picolibc.specs also selects
  // the TLS model its errno needs).
  std::vector<std::string> compile;
  // For the link: the libc itself and its system-call layer. The firmware brings its own
  // start-up (boards/common), so picolibc's crt0 is left out (-nostartfiles); newlib's crt0 is
  // linked as before but never referenced (the entry point is Reset_Handler).
  std::vector<std::string> link;
};

// The flags for `libc`, one of model::kLibcNames; anything else is an error naming the choices.
// newlib-nano's flags are the ones fathom always used, so its images are unchanged.
util::Result<LibcFlags> libc_flags(std::string_view libc);

// Which C library a linked image contains, told from the allocator it links (the harness always
// calls malloc, so every image has one), or nullopt when none of the patterns match.
// `has_symbol` answers whether the image defines a symbol of that name.
//   newlib       _malloc_r and __malloc_av_ (the bin array of newlib's dlmalloc, mallocr.c)
//   newlib-nano  _malloc_r and __malloc_free_list, no __malloc_av_ (nano-mallocr.c)
//   picolibc     __malloc_sbrk_top and no _malloc_r (picolibc's own nano-malloc has no
//                reentrant _r entry points)
std::optional<std::string> detect_libc(const std::function<bool(std::string_view)>& has_symbol);

// Checks that an image built for configuration `configuration` with C library `libc` contains
// that library (detect_libc); the error names what was found instead.
util::Result<void> check_libc(std::string_view configuration, std::string_view libc,
                              const std::function<bool(std::string_view)>& has_symbol);

}  // namespace fathom::build
