#pragma once
// The firmware cross toolchain (arm-none-eabi-gcc from Debian's gcc-arm-none-eabi), and the
// compiler cache its compiles go through when one is installed.
#include <filesystem>
#include <string>

#include "util/error.h"

namespace fathom::build {

struct Toolchain {
  std::string gcc = "arm-none-eabi-gcc";  // FATHOM_ARM_GCC overrides
  std::string ar = "arm-none-eabi-ar";
  std::string version;                    // first line of `gcc --version`
  // ccache (Debian's, installed by scripts/setup.sh) when it is on PATH and FATHOM_CCACHE is
  // not 0; FATHOM_CCACHE=PATH names another. Empty: compile directly. A launcher changes how
  // an object is made, never its bytes (see `launcher_command`), so it is in no build key.
  std::string ccache;
};

// Finds the toolchain and asks its version; an error says how to install it.
util::Result<Toolchain> find_toolchain();

// What a build file's compile command starts with, before the compiler: empty without ccache.
// With it, ccache runs with the settings that keep a cached object byte-identical to a compile
// in the same directory, whatever the user's environment says: the working directory is hashed
// (it is the objects' DWARF comp_dir) and no base directory rewrites absolute paths.
std::string launcher_command(const Toolchain& tc);

}  // namespace fathom::build
