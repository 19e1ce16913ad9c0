#pragma once
// A real board: fathom writes the image's run parameters into a copy of the ELF, flashes it
// with the board's own command (board.toml [serial] flash, an argv template for openocd,
// pyocd, nrfjprog, picotool, ...), resets it if the board names a reset command, and reads the
// harness's records (docs/PROTOCOL.md) from the board's UART until END, a reset of the board
// (a second HELLO), silence longer than idle_timeout_seconds or the whole run's
// timeout_seconds. The port is opened and drained before flashing, so nothing the new image
// says is lost. docs/BOARDS.md "Serial target".
#include <string>

#include "model/board.h"
#include "target/target.h"
#include "target/target_factory.h"

namespace fathom::target {

class SerialTarget final : public Target {
 public:
  // `settings` is the board's [serial] table with the command line's overrides applied;
  // `work_dir` (may be empty: a fresh temporary directory per run, removed afterwards) holds
  // the patched ELF and the .hex/.bin made from it.
  SerialTarget(model::SerialSettings settings, std::filesystem::path work_dir)
      : settings_(std::move(settings)), work_dir_(std::move(work_dir)) {}

  // The board's [serial] settings with `overrides` (--port, --baud) applied. Errors (usage):
  // no [serial] table, no port anywhere.
  static util::Result<model::SerialSettings> settings_for(const model::Board& board,
                                                          const SerialOverrides& overrides);

  std::string name() const override { return "serial"; }
  std::string measurement_key() const override;
  // A board's timings vary from run to run and the board may change under the same port:
  // never reuse its results.
  bool deterministic() const override { return false; }
  util::Result<TargetRun> run(const ImageToRun& image, const RunParameters& params) override;

 private:
  model::SerialSettings settings_;
  std::filesystem::path work_dir_;
};

}  // namespace fathom::target
