#pragma once
// The firmware cross toolchain (arm-none-eabi-gcc from Debian's gcc-arm-none-eabi).
#include <filesystem>
#include <string>

#include "util/error.h"

namespace fathom::build {

struct Toolchain {
  std::string gcc = "arm-none-eabi-gcc";  // FATHOM_ARM_GCC overrides
  std::string ar = "arm-none-eabi-ar";
  std::string version;                    // first line of `gcc --version`
};

// Finds the toolchain and asks its version; an error says how to install it.
util::Result<Toolchain> find_toolchain();

}  // namespace fathom::build
