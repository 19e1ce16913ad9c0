#include "target/target_factory.h"

#include <fmt/core.h>

#include "target/serial_target.h"
#include "target/sim_target.h"

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
    case model::TargetKind::kQemu:
      return util::fail_usage(
          fmt::format("board '{}': the QEMU target is not built in yet", board.name));
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
