#pragma once
// A tiny bare-metal image from Thumb assembly, for tests that need exact instructions: the
// source is written to `dir` and linked with arm-none-eabi-gcc (vector table at 0, .text at
// 0x100, entry `reset`, no libraries). Used by the simulator's and the profiler's unit tests.
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

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

}  // namespace fathom::testing
