#pragma once
// A tiny bare-metal image from Thumb assembly, for tests that need exact instructions: the
// source is written to `dir` and linked with arm-none-eabi-gcc (vector table at 0, .text at
// 0x100, entry `reset`, no libraries). Used by the simulator's and the profiler's unit tests.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>

#include "elf/elf_image.h"
#include "util/subprocess.h"

namespace fathom::testing {

struct AssembledImage {
  std::filesystem::path elf;  // empty when the toolchain is missing
  std::string error;          // the assembler's/linker's stderr when it failed
};

inline AssembledImage assemble_image(const std::filesystem::path& dir, const std::string& name,
                                     const std::string& source,
                                     const std::string& cpu = "cortex-m33") {
  std::filesystem::create_directories(dir);
  const std::filesystem::path s = dir / (name + ".S"), elf = dir / (name + ".elf");
  std::ofstream(s) << source;
  auto built = util::run_process({"arm-none-eabi-gcc", "-mcpu=" + cpu, "-mthumb", "-nostdlib",
                                  "-Wl,--section-start=.vectors=0", "-Wl,-Ttext=0x100",
                                  "-Wl,-e,reset", s.string(), "-o", elf.string()});
  if (!built) return {};
  if (built->exit_code != 0) return {{}, built->stderr_text.empty() ? "link failed" : built->stderr_text};
  return {elf, ""};
}

// Source for assemble_image: the vector table (initial SP, reset) and the global function
// `reset`, which runs `body` (its own local labels may be numbers) and then stops the
// simulator through its console's EXIT register; `after` follows (more functions).
inline std::string reset_program(const std::string& body, const std::string& after = "") {
  return R"(
  .syntax unified
  .thumb
  .section .vectors, "a"
  .word 0x20008000
  .word reset + 1
  .text
  .global reset
  .type reset, %function
reset:
)" + body + R"(
  ldr r1, =0x40000004    @ the simulator console's EXIT register
  movs r0, #0
  str r0, [r1]
.Lhalt:
  b .Lhalt
  .size reset, . - reset
  .ltorg
)" + after;
}

// assemble_image, loaded. Null with no failure recorded when the toolchain is missing (the
// caller skips); a failure to assemble or load is a test failure.
inline std::unique_ptr<elf::ElfImage> load_assembled(const std::filesystem::path& dir,
                                                     const std::string& name,
                                                     const std::string& source,
                                                     const std::string& cpu = "cortex-m33") {
  const AssembledImage built = assemble_image(dir, name, source, cpu);
  if (built.elf.empty() && built.error.empty()) return nullptr;
  EXPECT_TRUE(built.error.empty()) << built.error;
  if (!built.error.empty()) return nullptr;
  auto image = elf::ElfImage::load(built.elf);
  EXPECT_TRUE(image) << image.error().message;
  if (!image) return nullptr;
  return std::make_unique<elf::ElfImage>(std::move(*image));
}

}  // namespace fathom::testing
