#pragma once
// Builds one firmware image per (configuration, board) from the firmware/ tree with
// arm-none-eabi-gcc. Each build directory holds a generated build.ninja, so rebuilding an
// unchanged image is a no-op and a changed flag rebuilds exactly what it affects. The library
// archive is shared between configurations that differ only in harness options.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "build/library_description.h"
#include "build/toolchain.h"
#include "elf/elf_image.h"
#include "model/board.h"
#include "model/run_result.h"
#include "model/suite.h"
#include "util/error.h"

namespace fathom::build {

struct ImageRequest {
  const model::Configuration* configuration = nullptr;
  const model::Board* board = nullptr;
  std::filesystem::path firmware_dir;      // the repository's firmware/
  std::filesystem::path library_source;    // root of the unpacked library sources
  std::filesystem::path build_root;        // e.g. ~/.cache/fathom/builds
};

struct BuiltImage {
  std::filesystem::path elf;
  std::filesystem::path map_file;
  std::vector<std::string> cflags;         // flags every firmware file was compiled with
  std::string compiler;                    // toolchain version line
  std::string library_version;
  model::ImageSize size;
};

// Builds (or brings up to date) the image for `request`, then checks the configuration's
// declared ELF properties. `on_status` receives short progress lines ("compiling mbedtls").
util::Result<BuiltImage> build_image(const ImageRequest& request, const Toolchain& toolchain,
                                     const std::function<void(const std::string&)>& on_status);

// The flash and RAM footprint of a linked image from its section headers: flash holds code,
// read-only data and the initial values of .data; RAM holds .data and .bss (not the stack
// reserve or the heap). Where a section lives is decided by the board's memory map (its
// address), not by SHF_WRITE: the linker marks .rodata writable as soon as one input section
// in it is (.init_array, fathom's operation table), and it is still flash. Sections outside
// every region fall back to the flags (writable = RAM).
model::ImageSize image_size(const elf::ElfImage& elf, const model::Board& board);

}  // namespace fathom::build
