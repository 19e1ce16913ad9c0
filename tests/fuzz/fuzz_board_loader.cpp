// Fuzz target: a board description (firmware/boards/*/board.toml) as text. parse_board must
// answer every input with a board that satisfies the rules of suite/board_loader.h or an error
// located in the file ("fuzz.toml:LINE:COL: ..."), never a crash or an escaped exception.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "suite/board_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto board = fathom::suite::parse_board(text, "fuzz.toml");
  if (!board) {
    FATHOM_FUZZ_CHECK(board.error().message.starts_with("fuzz.toml:"));
    return 0;
  }
  const auto& cores = fathom::suite::kSupportedCores;
  FATHOM_FUZZ_CHECK(std::find(cores.begin(), cores.end(), board->core) != cores.end());
  FATHOM_FUZZ_CHECK(board->clock_hz > 0);
  FATHOM_FUZZ_CHECK(board->stack_bytes > 0 && board->stack_bytes % 8 == 0);
  FATHOM_FUZZ_CHECK(board->directory.empty());
  return 0;
}
