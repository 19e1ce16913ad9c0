#pragma once
// A board description: the core, its clock and its memory map. Read from
// firmware/boards/<name>/board.toml by both the firmware build (linker memory map) and the
// simulator (what to map where).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
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

// Which target runs a board's images (target/target_factory.h): the in-process simulator, a
// QEMU machine, or a real board flashed by a command and read over a UART.
enum class TargetKind { kSim, kQemu, kSerial };

// The console device the board layer writes to: the simulator's console register, an ARM CMSDK
// APB UART (QEMU's MPS2 machines; the simulator models its DATA/STATE/CTRL/BAUDDIV registers at
// console_address), or a silicon board's own UART driver (only a serial target reads it).
enum class ConsoleKind { kSim, kCmsdkUart, kBoardUart };

// The cycle counter the harness reads (board.toml `cycle_counter`): its header
// firmware/boards/common/cycle_counter_<name>.h defines the inline fathom_cycles_read()
// (firmware/harness/fathom_board.h). kDwt: the DWT CYCCNT register (one load; the simulator models
// it on every core, QEMU reads 0 and its target counts instructions at each read).
enum class CycleCounterKind { kDwt };

// board.toml [qemu]: the QEMU machine that runs this board's images.
struct QemuSettings {
  std::string machine;  // "mps2-an386"
  std::string cpu;      // QEMU -cpu value; empty = the machine's default
};

// board.toml [serial]: how fathom flashes a real board and reads its UART. Commands are argv
// templates: "{elf}", "{hex}", "{bin}" and "{port}" are replaced by the image's files and the
// port. The port and baud rate can be overridden on the command line (`--port`, `--baud`).
struct SerialSettings {
  std::string port;                     // "/dev/ttyACM0"
  uint32_t baud = 115200;
  std::vector<std::string> flash;       // flashes the image (and may reset the board)
  std::vector<std::string> reset;       // resets the board after the port is open; may be empty
  std::string probe;                    // debug probe, for the provenance ("J-Link OB")
  uint32_t timeout_seconds = 1800;      // the whole run, from the reset to END
  uint32_t idle_timeout_seconds = 120;  // longest silence on the UART before giving up
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
  TargetKind target = TargetKind::kSim;  // board.toml `target`
  ConsoleKind console = ConsoleKind::kSim;  // board.toml `console`
  CycleCounterKind cycle_counter = CycleCounterKind::kDwt;  // board.toml `cycle_counter`
  std::optional<QemuSettings> qemu;      // [qemu], required for target "qemu"
  std::optional<SerialSettings> serial;  // [serial], required for target "serial"
  // false for a silicon port nobody has run in this repository (`fathom list` says so).
  bool verified_on_silicon = true;
  uint32_t stack_bytes = 0;        // main stack size reserved by the linker script
  uint32_t console_address = 0;    // console register (sim console or CMSDK UART; docs/SIMULATOR.md)
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

  // Whether the simulator can run this board's images (it models the board's console).
  bool simulator_can_run() const { return console != ConsoleKind::kBoardUart; }

  const MemoryRegion* region(const std::string& region_name) const {
    for (const auto& r : memory)
      if (r.name == region_name) return &r;
    return nullptr;
  }
};

}  // namespace fathom::model

namespace fathom::model {
// board.toml spellings ("sim", "qemu", "serial"; "sim", "cmsdk-uart", "uart").
std::string_view to_string(TargetKind kind);
std::optional<TargetKind> parse_target_kind(std::string_view text);
std::string_view to_string(ConsoleKind kind);
std::optional<ConsoleKind> parse_console_kind(std::string_view text);
// board.toml spellings of the cycle counters ("dwt"); also the header's name suffix.
std::string_view to_string(CycleCounterKind kind);
std::optional<CycleCounterKind> parse_cycle_counter_kind(std::string_view text);
}  // namespace fathom::model
