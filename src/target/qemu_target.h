#pragma once
// The QEMU target: runs an image on `qemu-system-arm` (board.toml [qemu] machine and cpu) with
// the run parameters patched into a copy of the ELF, the console UART captured to a file, and
// fathom's TCG plugin (target/qemu_plugin_build.h) counting instructions exactly. QEMU models no
// cycle counter, so a QEMU run measures instructions, KATs, stack and heap, never cycles
// (docs/BOARDS.md "QEMU target") — unless the plugin is fathom's QEMU engine, which charges
// every instruction to the board's timing model (`engine`, docs/QEMU-ENGINE.md).
#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "target/target.h"

namespace fathom::target {

struct QemuTargetSettings {
  std::string binary = "qemu-system-arm";     // looked up on PATH
  std::filesystem::path plugin;               // the built plugin (target/qemu_plugin_build.h)
  std::string plugin_sha256;                  // its cache key, for measurement_key()
  // The plugin is fathom's QEMU engine (src/target/qemu_engine, QEMU 10): it carries the
  // board's timing model, so the run measures cycles too (docs/QEMU-ENGINE.md).
  bool engine = false;
  // The engine also runs the simulator's memory watch and primitive-share tracker.
  bool engine_observers = true;
  // With the engine and its observers: `fathom profile`'s call tracker runs in the plugin too,
  // and the text of the profile it wrote (profile/profile_file.h) is handed to this after the
  // run (not called when the plugin wrote none: then the run has an error).
  std::function<void(std::string)> engine_profile = {};
  std::filesystem::path work_dir;             // per-run directories are made inside it
  std::chrono::milliseconds timeout{std::chrono::minutes(30)};  // then QEMU is killed
};

class QemuTarget final : public Target {
 public:
  // Asks `settings.binary --version` for its version. Errors: QEMU not installed or not
  // answering.
  static util::Result<std::unique_ptr<QemuTarget>> create(QemuTargetSettings settings);

  std::string name() const override { return "qemu"; }
  std::string measurement_key() const override;
  bool deterministic() const override { return true; }
  // Errors: a board without [qemu], unusable parameters or ELF, a QEMU that did not start
  // the guest (its stderr in the message). An image that runs past the time limit is killed
  // and reported as fault "timeout".
  util::Result<TargetRun> run(const ImageToRun& image, const RunParameters& params) override;

  const std::string& version() const { return version_; }

 private:
  QemuTarget(QemuTargetSettings settings, std::string version)
      : settings_(std::move(settings)), version_(std::move(version)) {}
  QemuTargetSettings settings_;
  std::string version_;  // first line of `qemu-system-arm --version`
};

}  // namespace fathom::target
