// The simulated boards of firmware/boards load, select their core's timing model and describe
// their memory system in the model name (the provenance string).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "sim/timing/core_timing_model.h"
#include "suite/board_loader.h"
#include "util/source_dir.h"

namespace fathom::sim::timing {
namespace {

const std::filesystem::path kBoardsDir =
    std::filesystem::path(fathom::util::source_dir()) / "firmware" / "boards";

struct BoardCase {
  const char* board;
  const char* core;
  const char* cpu_flag;
  uint64_t clock_hz;
  const char* model_name;
};

void PrintTo(const BoardCase& c, std::ostream* os) { *os << c.board; }

class SimBoard : public ::testing::TestWithParam<BoardCase> {};

TEST_P(SimBoard, LoadsAndSelectsItsModel) {
  const BoardCase& c = GetParam();
  auto board = suite::load_board(kBoardsDir, c.board);
  ASSERT_TRUE(board) << board.error().message;
  EXPECT_EQ(board->core, c.core);
  EXPECT_EQ(board->clock_hz, c.clock_hz);
  ASSERT_FALSE(board->cflags.empty());
  EXPECT_EQ(board->cflags.front(), c.cpu_flag);
  const model::MemoryRegion* flash = board->region("flash");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->wait_states, 0u);
  auto model = make_timing_model(*board);
  ASSERT_TRUE(model) << model.error().message;
  EXPECT_EQ((*model)->name(), c.model_name);
}

INSTANTIATE_TEST_SUITE_P(
    Boards, SimBoard,
    ::testing::Values(
        BoardCase{"sim-m4", "cortex-m4", "-mcpu=cortex-m4", 20000000,
                  "cortex-m4/2 ws=0 prefetch=on icache=off refinements=on"},
        BoardCase{"sim-m4-unrefined", "cortex-m4", "-mcpu=cortex-m4", 20000000,
                  "cortex-m4/2 ws=0 prefetch=on icache=off refinements=off"},
        BoardCase{"sim-m3", "cortex-m3", "-mcpu=cortex-m3", 24000000,
                  "cortex-m3/2 ws=0 prefetch=on icache=off refinements=off"},
        BoardCase{"sim-m0plus", "cortex-m0plus", "-mcpu=cortex-m0plus", 24000000,
                  "cortex-m0plus/1 ws=0 prefetch=on icache=off multiplier=fast"},
        BoardCase{"sim-m33", "cortex-m33", "-mcpu=cortex-m33", 128000000,
                  "cortex-m33/2 ws=0 prefetch=on icache=off"}),
    [](const ::testing::TestParamInfo<BoardCase>& info) {
      std::string name = info.param.board;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST(SimBoard, RejectsAnUnknownMultiplier) {
  const std::string text = R"(name = "x"
core = "cortex-m0plus"
clock_hz = 1000
stack_bytes = 1024
console_address = 0x40000000
multiplier = "medium"
sources = ["a.c"]
linker_script = "a.ld"
[[memory]]
name = "flash"
kind = "flash"
origin = 0x0
length = 0x1000
[[memory]]
name = "sram"
kind = "ram"
origin = 0x20000000
length = 0x1000
)";
  auto board = suite::parse_board(text, "test.toml");
  ASSERT_FALSE(board);
  EXPECT_NE(board.error().message.find("multiplier is 'medium'"), std::string::npos)
      << board.error().message;
}

}  // namespace
}  // namespace fathom::sim::timing
