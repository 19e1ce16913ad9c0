#include "suite/board_loader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include "util/source_dir.h"

namespace fathom::suite {
namespace {

const std::filesystem::path kBoardsDir =
    std::filesystem::path(fathom::util::source_dir()) / "firmware" / "boards";

// A valid board; `memory` replaces the memory regions and `extra` is appended to the top.
std::string board_text(const std::string& extra = "", const std::string& memory = R"(
[[memory]]
name = "flash"
kind = "flash"
origin = 0x0
length = 0x1000
[[memory]]
name = "ram"
kind = "ram"
origin = 0x20000000
length = 0x1000
)") {
  return "name = \"b\"\ncore = \"cortex-m4\"\nclock_hz = 1000\nstack_bytes = 256\n"
         "console_address = 0x40000000\nsources = [\"start.c\"]\nlinker_script = \"b.ld\"\n" +
         extra + memory;
}

std::string error_of(const std::string& text) {
  auto board = parse_board(text, "b.toml");
  EXPECT_FALSE(board.has_value()) << "expected an error for:\n" << text;
  return board ? std::string() : board.error().message;
}

TEST(BoardLoader, LoadsSimM33FromTheRepository) {
  auto board = load_board(kBoardsDir, "sim-m33");
  ASSERT_TRUE(board.has_value()) << board.error().message;
  EXPECT_EQ(board->name, "sim-m33");
  EXPECT_EQ(board->core, "cortex-m33");
  EXPECT_TRUE(board->has_fpu);
  EXPECT_TRUE(board->has_dsp);
  EXPECT_EQ(board->clock_hz, 128'000'000u);
  EXPECT_EQ(board->stack_bytes, 147456u);
  EXPECT_EQ(board->console_address, 0x40000000u);
  EXPECT_EQ(board->cflags.front(), "-mcpu=cortex-m33");
  EXPECT_EQ(board->directory, kBoardsDir / "sim-m33");
  EXPECT_FALSE(board->firmware_sources.empty());
  const auto* flash = board->region("flash");
  ASSERT_NE(flash, nullptr);
  EXPECT_EQ(flash->kind, model::MemoryKind::kFlash);
  EXPECT_EQ(flash->origin, 0u);
  EXPECT_EQ(flash->length_bytes, 0x100000u);
  const auto* sram = board->region("sram");
  ASSERT_NE(sram, nullptr);
  EXPECT_EQ(sram->kind, model::MemoryKind::kRam);
  EXPECT_EQ(sram->origin, 0x20000000u);
  EXPECT_EQ(sram->length_bytes, 0x40000u);
}

TEST(BoardLoader, ListsBoardsAndRejectsUnknownOnesWithTheList) {
  const auto boards = list_boards(kBoardsDir);
  EXPECT_NE(std::find(boards.begin(), boards.end(), "sim-m33"), boards.end());
  auto missing = load_board(kBoardsDir, "no-such-board");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("unknown board 'no-such-board'"), std::string::npos);
  EXPECT_NE(missing.error().message.find("sim-m33"), std::string::npos);
  EXPECT_FALSE(load_board(kBoardsDir, "../boards/sim-m33").has_value());
  EXPECT_TRUE(list_boards("/nonexistent/boards").empty());
}

TEST(BoardLoader, NameMustMatchDirectory) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("fathom-board-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "other");
  std::ofstream(dir / "other" / "board.toml") << board_text();
  auto board = load_board(dir, "other");
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(board.has_value());
  EXPECT_NE(board.error().message.find("board.toml:1:8: board name 'b' does not match its "
                                      "directory 'other'"),
            std::string::npos)
      << board.error().message;
}

TEST(BoardLoader, ParsesAValidBoard) {
  auto board = parse_board(board_text(), "b.toml");
  ASSERT_TRUE(board.has_value()) << board.error().message;
  EXPECT_FALSE(board->has_fpu);
  EXPECT_EQ(board->memory.size(), 2u);
}

TEST(BoardLoader, TimingRefinementsIsABooleanDefaultingToOff) {
  auto plain = parse_board(board_text(), "b.toml");
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  EXPECT_FALSE(plain->timing_refinements);
  auto on = parse_board(board_text("timing_refinements = true\n"), "b.toml");
  ASSERT_TRUE(on.has_value()) << on.error().message;
  EXPECT_TRUE(on->timing_refinements);
  EXPECT_EQ(error_of(board_text("timing_refinements = \"on\"\n")),
            "b.toml:8:22: 'timing_refinements' in the board description must be true or "
            "false, not a string");
}

TEST(BoardLoader, ErrorsCarryLineAndColumn) {
  EXPECT_EQ(error_of(board_text("fpux = true\n")),
            "b.toml:8:1: unknown key 'fpux' in the board description");
  EXPECT_EQ(error_of(board_text("fpu = 1\n")),
            "b.toml:8:7: 'fpu' in the board description must be true or false, not an integer");
  EXPECT_EQ(error_of("name = \"b\"\ncore = \"cortex-a53\"\n"),
            "b.toml:2:8: core 'cortex-a53' is not supported; use one of: cortex-m0plus, "
            "cortex-m3, cortex-m4, cortex-m33");
  EXPECT_EQ(error_of("name = \"b\"\ncore = \"cortex-m4\"\nclock_hz = 0\n"),
            "b.toml:3:12: 'clock_hz' in the board description is 0; it must be between 1 and "
            "10000000000");
  EXPECT_EQ(error_of("name = \"b\"\ncore = \"cortex-m4\"\nclock_hz = \n").rfind("b.toml:3:", 0),
            0u);
}

TEST(BoardLoader, MemoryRegionsAreChecked) {
  const std::string flash =
      "[[memory]]\nname = \"flash\"\nkind = \"flash\"\norigin = 0\nlength = 0x1000\n";
  auto ram = [](const std::string& origin, const std::string& length,
                const std::string& name = "ram") {
    return "[[memory]]\nname = \"" + name + "\"\nkind = \"ram\"\norigin = " + origin +
           "\nlength = " + length + "\n";
  };
  // Lines: the board header takes 7 lines, so the first region starts on line 8.
  EXPECT_EQ(error_of(board_text("", flash + ram("0x20000000", "0"))),
            "b.toml:17:10: 'length' in [[memory]] 'ram' is 0; it must be between 1 and 4294967295");
  EXPECT_NE(error_of(board_text("", flash + ram("0xFFFFF000", "0x2000")))
                .find("b.toml:17:10: [[memory]] 'ram' at 0xfffff000 with length 0x2000 runs past"),
            std::string::npos);
  EXPECT_NE(
      error_of(board_text("", flash + ram("0x800", "0x1000")))
          .find(
              "b.toml:14:8: memory region 'ram' [0x00000800, 0x000001800) overlaps region 'flash'"),
      std::string::npos);
  EXPECT_NE(
      error_of(board_text("", flash + ram("0x20000000", "0x1000", "flash"))).find("used twice"),
      std::string::npos);
  EXPECT_NE(error_of(board_text("", flash)).find("no ram region"), std::string::npos);
  EXPECT_NE(error_of(board_text("", ram("0x20000000", "0x1000"))).find("0 flash regions"),
            std::string::npos);
  EXPECT_NE(
      error_of(
          board_text("",
                     flash + flash.substr(0, 11) +
                         "name = \"flash2\"\nkind = \"flash\"\norigin = 0x10000\nlength = 0x10\n"))
          .find("2 flash regions"),
      std::string::npos);
  EXPECT_NE(error_of(board_text("", flash + ram("0x20000000", "0x1000") + "kind = \"rom\"\n"))
                .rfind("b.toml:18:", 0),
            std::string::npos);  // duplicate key: a TOML syntax error
  EXPECT_NE(
      error_of(
          board_text("",
                     flash + "[[memory]]\nname = \"r\"\nkind = \"rom\"\norigin = 1\nlength = 1\n"))
          .find("b.toml:15:8: kind of [[memory]] 'r' is 'rom'"),
      std::string::npos);
  EXPECT_NE(error_of(board_text("", flash + ram("0x20000000", "0x1000") + "speed = 3\n"))
                .find("b.toml:18:1: unknown key 'speed' in [[memory]] 'ram'"),
            std::string::npos);
}

TEST(BoardLoader, StackAndConsoleAreChecked) {
  auto with = [](const std::string& stack, const std::string& console) {
    return "name = \"b\"\ncore = \"cortex-m4\"\nclock_hz = 1000\nstack_bytes = " + stack +
           "\nconsole_address = " + console +
           "\nsources = [\"start.c\"]\nlinker_script = \"b.ld\"\n[[memory]]\nname = "
           "\"flash\"\nkind = \"flash\"\norigin = 0\nlength = 0x1000\n"
           "[[memory]]\nname = \"ram\"\nkind = \"ram\"\norigin = 0x20000000\nlength = 0x1000\n";
  };
  EXPECT_TRUE(parse_board(with("4096", "0x40000000"), "b.toml").has_value());
  EXPECT_NE(error_of(with("4097", "0x40000000")).find("b.toml:4:15: stack_bytes is 4097"),
            std::string::npos);
  EXPECT_NE(error_of(with("8192", "0x40000000")).find("does not fit"), std::string::npos);
  EXPECT_NE(error_of(with("256", "0x20000010"))
                .find("b.toml:5:19: console_address 0x20000010 lies inside"),
            std::string::npos);
}

TEST(BoardLoader, TargetDefaultsToTheSimulator) {
  auto board = parse_board(board_text(), "b.toml");
  ASSERT_TRUE(board.has_value()) << board.error().message;
  EXPECT_EQ(board->target, model::TargetKind::kSim);
  EXPECT_EQ(board->console, model::ConsoleKind::kSim);
  EXPECT_FALSE(board->qemu.has_value());
  EXPECT_FALSE(board->serial.has_value());
  EXPECT_TRUE(board->verified_on_silicon);
}

TEST(BoardLoader, CycleCounterDefaultsToTheDwtAndRejectsUnknownCounters) {
  auto plain = parse_board(board_text(), "b.toml");
  ASSERT_TRUE(plain.has_value()) << plain.error().message;
  EXPECT_EQ(plain->cycle_counter, model::CycleCounterKind::kDwt);
  auto dwt = parse_board(board_text("cycle_counter = \"dwt\"\n"), "b.toml");
  ASSERT_TRUE(dwt.has_value()) << dwt.error().message;
  EXPECT_EQ(dwt->cycle_counter, model::CycleCounterKind::kDwt);
  EXPECT_EQ(model::to_string(dwt->cycle_counter), "dwt");
  EXPECT_NE(error_of(board_text("cycle_counter = \"systick\"\n"))
                .find("b.toml:8:17: cycle_counter is 'systick'; use \"dwt\""),
            std::string::npos);
}

TEST(BoardLoader, LoadsTheQemuBoardsFromTheRepository) {
  auto an386 = load_board(kBoardsDir, "qemu-mps2-an386");
  ASSERT_TRUE(an386.has_value()) << an386.error().message;
  EXPECT_EQ(an386->target, model::TargetKind::kQemu);
  EXPECT_EQ(an386->console, model::ConsoleKind::kCmsdkUart);
  EXPECT_EQ(an386->console_address, 0x40004000u);
  ASSERT_TRUE(an386->qemu.has_value());
  EXPECT_EQ(an386->qemu->machine, "mps2-an386");
  EXPECT_TRUE(an386->simulator_can_run());

  auto an505 = load_board(kBoardsDir, "qemu-mps2-an505");
  ASSERT_TRUE(an505.has_value()) << an505.error().message;
  EXPECT_EQ(an505->core, "cortex-m33");
  EXPECT_EQ(an505->console_address, 0x50200000u);
  ASSERT_TRUE(an505->qemu.has_value());
  EXPECT_EQ(an505->qemu->machine, "mps2-an505");
  // The machine boots only images at the Secure aliases of its SSRAMs.
  ASSERT_NE(an505->flash(), nullptr);
  EXPECT_EQ(an505->flash()->origin, 0x10000000u);
  ASSERT_NE(an505->region("sram"), nullptr);
  EXPECT_EQ(an505->region("sram")->origin, 0x38000000u);
}

TEST(BoardLoader, ParsesQemuAndSerialSettings) {
  auto qemu = parse_board(board_text("target = \"qemu\"\nconsole = \"cmsdk-uart\"\n"
                                     "[qemu]\nmachine = \"mps2-an386\"\ncpu = \"cortex-m4\"\n"),
                          "b.toml");
  ASSERT_TRUE(qemu.has_value()) << qemu.error().message;
  EXPECT_EQ(qemu->target, model::TargetKind::kQemu);
  EXPECT_EQ(qemu->console, model::ConsoleKind::kCmsdkUart);
  ASSERT_TRUE(qemu->qemu.has_value());
  EXPECT_EQ(qemu->qemu->machine, "mps2-an386");
  EXPECT_EQ(qemu->qemu->cpu, "cortex-m4");

  // A silicon board: its own UART, no console register needed.
  const std::string serial_text =
      "name = \"b\"\ncore = \"cortex-m33\"\nclock_hz = 128000000\nstack_bytes = 256\n"
      "sources = [\"start.c\"]\nlinker_script = \"b.ld\"\ntarget = \"serial\"\n"
      "console = \"uart\"\nverified_on_silicon = false\n"
      "[serial]\nport = \"/dev/ttyACM0\"\nbaud = 1000000\n"
      "flash = [\"nrfjprog\", \"--program\", \"{hex}\"]\nreset = [\"nrfjprog\", \"--reset\"]\n"
      "probe = \"J-Link OB\"\ntimeout_seconds = 600\nidle_timeout_seconds = 30\n"
      "[[memory]]\nname = \"flash\"\nkind = \"flash\"\norigin = 0\nlength = 0x1000\n"
      "[[memory]]\nname = \"ram\"\nkind = \"ram\"\norigin = 0x20000000\nlength = 0x1000\n";
  auto serial = parse_board(serial_text, "b.toml");
  ASSERT_TRUE(serial.has_value()) << serial.error().message;
  EXPECT_EQ(serial->target, model::TargetKind::kSerial);
  EXPECT_FALSE(serial->simulator_can_run());
  EXPECT_FALSE(serial->verified_on_silicon);
  ASSERT_TRUE(serial->serial.has_value());
  EXPECT_EQ(serial->serial->port, "/dev/ttyACM0");
  EXPECT_EQ(serial->serial->baud, 1000000u);
  EXPECT_EQ(serial->serial->flash, (std::vector<std::string>{"nrfjprog", "--program", "{hex}"}));
  EXPECT_EQ(serial->serial->reset, (std::vector<std::string>{"nrfjprog", "--reset"}));
  EXPECT_EQ(serial->serial->probe, "J-Link OB");
  EXPECT_EQ(serial->serial->timeout_seconds, 600u);
  EXPECT_EQ(serial->serial->idle_timeout_seconds, 30u);
}

TEST(BoardLoader, TargetSettingsAreChecked) {
  EXPECT_NE(error_of(board_text("target = \"jtag\"\n")).find("b.toml:8:10: target is 'jtag'"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("console = \"usb\"\n")).find("console is 'usb'"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("target = \"qemu\"\n")).find("no [qemu] table"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("target = \"serial\"\n")).find("no [serial] table"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("console = \"uart\"\n")).find("cannot run on the simulator"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("target = \"serial\"\nconsole = \"uart\"\n[serial]\nport = \"x\"\n"))
                .find("[serial] is missing required key 'flash'"),
            std::string::npos);
  EXPECT_NE(error_of(board_text("[qemu]\nmachine = \"mps2-an386\"\nmemory = 1\n"))
                .find("memory"),
            std::string::npos);
}

}  // namespace
}  // namespace fathom::suite
