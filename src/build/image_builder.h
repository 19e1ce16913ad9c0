#pragma once
// Builds one firmware image per (configuration, board) from the firmware/ tree with
// arm-none-eabi-gcc. Each build directory holds a generated build.ninja, so rebuilding an
// unchanged image is a no-op and a changed flag rebuilds exactly what it affects. The library
// archive is shared between configurations that differ only in harness options.
#include <filesystem>
#include <memory>
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
  // The configuration's library, then each of `with_libraries`, as the caller already read
  // them (pipeline/image_plan.h); empty = read them from firmware/libs here.
  std::vector<const LibraryDescription*> descriptions;
  const model::Board* board = nullptr;
  std::filesystem::path firmware_dir;      // the repository's firmware/
  std::filesystem::path library_source;    // root of the unpacked library sources
  std::filesystem::path build_root;        // e.g. ~/.cache/fathom/builds
  // The library's source identity for the build key (build/build_key.h): the lock's archive
  // SHA-256 for a pinned source; empty = hash the tree at `library_source` (an env override).
  std::string library_source_identity;
  // Further libraries linked into the image (the configuration's `with_libraries`), with their
  // default options unless `options` sets some: their archives, glue and (unless
  // options.operations is false) workloads join the image, so operations of several libraries
  // can be composed in one image (device workflows, TLS interop).
  struct ExtraLibrary {
    std::string name;
    std::filesystem::path source_root;
    std::string source_identity;  // as library_source_identity
    model::LibraryOptions options;
  };
  std::vector<ExtraLibrary> with_libraries;
  // Parallel jobs for each ninja run (`ninja -j`); 0 = ninja's default (CPUs + 2).
  unsigned ninja_jobs = 0;
};

struct BuiltImage {
  std::filesystem::path elf;
  std::filesystem::path map_file;
  std::vector<std::string> cflags;         // flags every firmware file was compiled with
  std::string compiler;                    // toolchain version line
  std::string library_version;
  model::ImageSize size;
  std::string elf_sha256;
  // The ELF as the build checked it, loaded once for everything after the build.
  std::shared_ptr<const elf::ElfImage> elf_image;
  // True if the build cache already held this image (its manifest matched the content key),
  // so no compiler or ninja ran.
  bool reused = false;
};

// Builds (or brings up to date) the image for `request`, then checks the configuration's
// declared ELF properties. An image directory whose manifest holds the image's content key
// (build/build_key.h) and a verified ELF is reused without running ninja; after a successful
// build and check the manifest is written. `on_status` receives short progress lines ("compiling mbedtls").
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
