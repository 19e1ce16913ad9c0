#include "target/target_factory.h"

#include <fmt/core.h>

#include "target/qemu_plugin_build.h"
#include "target/qemu_target.h"
#include "target/sim/sim_target.h"
#include "util/cache_dir.h"
#include "util/sha256.h"
#include "target/serial_target.h"

namespace fathom::target {

namespace {

// The QEMU target with fathom's engine: QEMU 10 from the cache, the plugin CMake built.
util::Result<std::unique_ptr<Target>> make_qemu_engine_target(const TargetSettings& settings,
                                                              const std::filesystem::path& cache) {
  namespace fs = std::filesystem;
  const std::string binary =
      !settings.qemu10_binary.empty()
          ? settings.qemu10_binary
          : (cache / "qemu10-10.0.13" / "build" / "qemu-system-arm").string();
  if (settings.qemu10_binary.empty() && !fs::is_regular_file(binary))
    return util::fail_usage(fmt::format(
        "--qemu-engine model needs QEMU 10 with TCG plugins, which is not built ({} is missing): run "
        "scripts/build-qemu10.sh (about 6 to 10 minutes on 2 cores, once), then rebuild fathom",
        binary));
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (settings.qemu_engine_plugin.empty() && (ec || self.empty()))
    return util::fail(fmt::format("cannot find the fathom executable's directory (/proc/self/exe: "
                                  "{}) to load the QEMU engine plugin",
                                  ec.message()));
  const fs::path plugin = !settings.qemu_engine_plugin.empty()
                              ? settings.qemu_engine_plugin
                              : self.parent_path() / "libfathom_qemu_engine.so";
  if (!fs::is_regular_file(plugin))
    return util::fail_usage(fmt::format(
        "--qemu-engine model needs fathom's engine plugin {}, which this build of fathom did not make: "
        "CMake builds it when QEMU 10's plugin header and glib's headers are present (run "
        "scripts/build-qemu10.sh, then configure and build fathom again)",
        plugin.string()));
  auto digest = util::sha256_file(plugin);
  if (!digest) return tl::unexpected(digest.error());
  auto qemu = QemuTarget::create(
      {.binary = binary,
       .plugin = plugin,
       .plugin_sha256 = *digest,
       .engine = true,
       .engine_observers = settings.qemu_engine_observers,
       .engine_profile = settings.qemu_engine_profile,
       .work_dir = settings.work_dir.empty() ? cache / "tmp" : settings.work_dir,
       .timeout = settings.qemu_timeout});
  if (!qemu) return tl::unexpected(qemu.error());
  return std::unique_ptr<Target>(std::move(*qemu));
}

}  // namespace

model::TargetKind target_kind(const model::Board& board, const TargetSettings& settings) {
  return settings.kind.value_or(board.target);
}

util::Result<std::unique_ptr<Target>> make_target(const model::Board& board,
                                                  const TargetSettings& settings) {
  const model::TargetKind kind = target_kind(board, settings);
  if (settings.qemu_engine && kind != model::TargetKind::kQemu)
    return util::fail_usage(fmt::format(
        "--qemu-engine model applies to the QEMU target, and board '{}' runs on the {} target: "
        "use a QEMU board (--board qemu-mps2-an505, qemu-mps2-an386) or --target qemu",
        board.name, kind == model::TargetKind::kSim ? "sim" : "serial"));
  switch (kind) {
    case model::TargetKind::kSim:
      if (!board.simulator_can_run())
        return util::fail_usage(fmt::format(
            "board '{}' cannot run on the simulator: its console is its own UART (board.toml "
            "console = \"uart\"); use its own target (--target serial)",
            board.name));
      return std::unique_ptr<Target>(std::make_unique<SimTarget>(settings.sim));
    case model::TargetKind::kQemu: {
      if (!board.qemu)
        return util::fail_usage(fmt::format(
            "board '{}' cannot run on QEMU: its board.toml has no [qemu] machine", board.name));
      if (board.console != model::ConsoleKind::kCmsdkUart)
        return util::fail_usage(fmt::format(
            "board '{}' cannot run on QEMU: its console is not a CMSDK UART (board.toml "
            "console = \"cmsdk-uart\")",
            board.name));
      auto cache = util::cache_dir();
      if (!cache) return tl::unexpected(cache.error());
      if (settings.qemu_engine) return make_qemu_engine_target(settings, *cache);
      auto plugin = build_qemu_plugin({.plugin_source = default_plugin_source(),
                                       .qemu_source_root = settings.qemu_source_root,
                                       .cache_root = *cache});
      if (!plugin) return tl::unexpected(plugin.error());
      auto qemu = QemuTarget::create(
          {.binary = settings.qemu_binary,
           .plugin = plugin->library,
           .plugin_sha256 = plugin->sha256,
           .work_dir = settings.work_dir.empty() ? *cache / "tmp" : settings.work_dir,
           .timeout = settings.qemu_timeout});
      if (!qemu) return tl::unexpected(qemu.error());
      return std::unique_ptr<Target>(std::move(*qemu));
    }
    case model::TargetKind::kSerial: {
      auto serial = SerialTarget::settings_for(board, settings.serial);
      if (!serial) return tl::unexpected(serial.error());
      return std::unique_ptr<Target>(
          std::make_unique<SerialTarget>(std::move(*serial), settings.work_dir));
    }
  }
  return util::fail("unknown target kind");
}

}  // namespace fathom::target
