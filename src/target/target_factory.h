#pragma once
// Picks the target that runs a board's images: board.toml `target` ("sim", "qemu", "serial"),
// unless the command line names another (`--target`). The pipeline reaches every target
// through this and target/target.h only.
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "model/board.h"
#include "target/sim_settings.h"
#include "target/target.h"
#include "util/error.h"

namespace fathom::target {

// Command-line overrides of a serial board's [serial] settings.
struct SerialOverrides {
  std::string port;             // --port
  std::optional<uint32_t> baud; // --baud
};

struct TargetSettings {
  std::optional<model::TargetKind> kind;  // --target; empty = the board's
  SimSettings sim;
  SerialOverrides serial;
  std::string qemu_binary = "qemu-system-arm";  // found on PATH
  // --qemu-engine model: the QEMU target runs QEMU 10 with fathom's engine plugin, which carries the
  // timing model (docs/QEMU-ENGINE.md). `qemu10_binary` empty = the one scripts/build-qemu10.sh
  // built in the cache; `qemu_engine_plugin` empty = libfathom_qemu_engine.so beside fathom.
  bool qemu_engine = false;
  // ... with the simulator's run observers in the plugin (memory watch, primitive share), as
  // `fathom run` always has them; off only for `fathom bench`'s bare-model figure.
  bool qemu_engine_observers = true;
  // ... and `fathom profile`'s call tracker, whose profile file's text is handed to this
  // (target/qemu_target.h QemuTargetSettings::engine_profile).
  std::function<void(std::string)> qemu_engine_profile = {};
  std::string qemu10_binary;
  std::filesystem::path qemu_engine_plugin;
  // The unpacked pinned `qemu` source (sources.lock), whose plugin header the QEMU target's
  // plugin is built against; the caller finds it (empty = not fetched).
  std::filesystem::path qemu_source_root;
  // A QEMU run that takes longer is killed and reported as fault "timeout".
  std::chrono::milliseconds qemu_timeout{std::chrono::minutes(30)};
  // Scratch space for files a target makes per run (patched ELF, probe log); created on use;
  // empty = <cache>/tmp.
  std::filesystem::path work_dir;
};

// The target for `board` under `settings`. Errors: a kind the board cannot run on (a board
// whose console is its own UART on the simulator, QEMU for a board without [qemu], a serial
// target without [serial] or port).
util::Result<std::unique_ptr<Target>> make_target(const model::Board& board,
                                                  const TargetSettings& settings);

// The kind `settings` selects for `board`.
model::TargetKind target_kind(const model::Board& board, const TargetSettings& settings);

}  // namespace fathom::target
