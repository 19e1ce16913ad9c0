#pragma once
// The sim-m33 board (firmware/boards/sim-m33/board.toml) that the simulator's and the
// profiler's unit tests run the fixture firmware on (tests/fixtures/firmware), built here so
// that those tests do not depend on the board loader.
#include "model/board.h"

namespace fathom::testing {

inline model::Board fixture_board() {
  model::Board b;
  b.name = "sim-m33-test";
  b.core = "cortex-m33";
  b.has_fpu = true;
  b.has_dsp = true;
  b.clock_hz = 128'000'000;
  b.memory = {{"flash", model::MemoryKind::kFlash, 0x00000000u, 0x00100000u, 0},
              {"sram", model::MemoryKind::kRam, 0x20000000u, 0x00040000u, 0}};
  b.stack_bytes = 0x8000;
  b.console_address = 0x40000000u;
  return b;
}

}  // namespace fathom::testing
