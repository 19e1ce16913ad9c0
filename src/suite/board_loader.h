#pragma once
// Board descriptions: firmware/boards/<name>/board.toml, read by the firmware build and the
// simulator.
//
// Checked rules: known keys only; `core` is one of kSupportedCores; clock_hz > 0; memory
// regions are non-empty, end at or below 4 GiB, do not overlap and have unique names; exactly
// one region has kind "flash" and at least one has kind "ram"; stack_bytes is a positive
// multiple of 8 (AAPCS stack alignment) that fits in the largest RAM region;
// console_address lies outside every memory region; the timing keys `prefetch`, `icache` and
// `timing_refinements` are booleans (defaults: true / false / model::Board's) and
// `multiplier` is "fast" or "small" (default "fast"; docs/TIMING.md); `target` is "sim"
// (default), "qemu" (needs [qemu] machine) or "serial" (needs [serial] flash); `console` is
// "sim" (default), "cmsdk-uart" or "uart" (a board's own UART: console_address is then
// optional and the simulator cannot run the board); `cycle_counter` is "dwt" (default; the
// header firmware/boards/common/cycle_counter_dwt.h). Every error is one line
// `FILE:LINE:COL: message`.
#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/board.h"
#include "util/error.h"

namespace fathom::suite {

inline constexpr std::array<std::string_view, 4> kSupportedCores = {"cortex-m0plus", "cortex-m3",
                                                                    "cortex-m4", "cortex-m33"};

// Reads `<boards_dir>/<name>/board.toml`. An unknown `name` is an error listing the boards
// that exist; the file's `name` must equal `name`. `Board::directory` is set to
// `<boards_dir>/<name>`.
util::Result<model::Board> load_board(const std::filesystem::path& boards_dir,
                                      const std::string& name);

// Parses board description `text`; `source_name` is used in messages. `Board::directory` is
// left empty.
util::Result<model::Board> parse_board(std::string_view text, std::string source_name);

// Names of the sub-directories of `boards_dir` that contain a board.toml, sorted. Empty if
// `boards_dir` does not exist.
std::vector<std::string> list_boards(const std::filesystem::path& boards_dir);

}  // namespace fathom::suite
