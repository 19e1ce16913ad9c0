#include "target/target_factory.h"

#include <fmt/core.h>

#include "target/qemu_plugin_build.h"
#include "target/qemu_target.h"
#include "target/sim/sim_target.h"
#include "util/cache_dir.h"
#include "target/serial_target.h"

namespace fathom::target {

model::TargetKind target_kind(const model::Board& board, const TargetSettings& settings) {
  return settings.kind.value_or(board.target);
}

util::Result<std::unique_ptr<Target>> make_target(const model::Board& board,
                                                  const TargetSettings& settings) {
  switch (target_kind(board, settings)) {
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
