#pragma once
// A board description: the core, its clock and its memory map. Read from
// firmware/boards/<name>/board.toml by both the firmware build (linker memory map) and the
// simulator (what to map where).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace fathom::model {

enum class MemoryKind { kFlash, kRam };

struct MemoryRegion {
  std::string name;         // "flash", "sram"
  MemoryKind kind = MemoryKind::kRam;
  uint32_t origin = 0;      // address of the first byte
  uint32_t length_bytes = 0;
  uint32_t wait_states = 0; // extra cycles per access beyond the core's zero-wait figure
};

// Multiplier implementation option of cores that offer one (Cortex-M0+: MULS 1 or 32 cycles).
enum class Multiplier { kFast, kSmall };

struct Board {
  std::string name;          // "sim-m33"
  std::string description;
  std::string core;          // "cortex-m33", "cortex-m4", ...
  bool has_fpu = false;
  bool has_dsp = false;
  uint64_t clock_hz = 0;
  // Instruction-fetch side of the memory system (timing model, docs/TIMING.md): a prefetch
  // buffer that hides flash wait states on straight-line code, and an instruction cache.
  bool prefetch = true;
  bool icache = false;
  Multiplier multiplier = Multiplier::kFast;
  // Cortex-M4/M3 fetch-related measured refinements (docs/TIMING.md "Cortex-M4"): groups of
  // unaligned 32-bit instructions, unaligned 32-bit loads, literal-load contention, NOP
  // absorption by a load. board.toml `timing_refinements`; shown in the model name.
  bool timing_refinements = false;
  std::vector<MemoryRegion> memory;
  uint32_t stack_bytes = 0;        // main stack size reserved by the linker script
  uint32_t console_address = 0;    // simulator console register (see docs/SIMULATOR.md)
  std::vector<std::string> cflags; // -mcpu=... etc. for the firmware compiler
  // Board layer sources and linker script, relative to `directory`.
  std::vector<std::string> firmware_sources;
  std::string linker_script;
  std::filesystem::path directory; // firmware/boards/<name>

  // The flash region (the board loader guarantees exactly one), or nullptr.
  const MemoryRegion* flash() const {
    for (const auto& r : memory)
      if (r.kind == MemoryKind::kFlash) return &r;
    return nullptr;
  }

  const MemoryRegion* region(const std::string& region_name) const {
    for (const auto& r : memory)
      if (r.name == region_name) return &r;
    return nullptr;
  }
};

}  // namespace fathom::model
