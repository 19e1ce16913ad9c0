#include "suite/board_loader.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <system_error>

#include "suite/toml_reader.h"
#include "util/name_suggestion.h"

namespace fathom::suite {
namespace {

constexpr int64_t kAddressSpaceBytes = int64_t{1} << 32;
constexpr int64_t kMaxU32 = kAddressSpaceBytes - 1;

#define FATHOM_TRY(var, expr) \
  auto var = (expr);          \
  if (!var) return tl::unexpected(std::move(var).error())

struct ParsedRegion {
  model::MemoryRegion region;
  const toml::table* table;  // for error positions
};

util::Result<ParsedRegion> parse_region(const toml::table& table, std::string_view source,
                                        size_t index) {
  TableReader first(table, source, fmt::format("[[memory]] #{}", index + 1));
  FATHOM_TRY(name, first.required_string("name"));
  if (!is_valid_name(*name))
    return tl::unexpected(first.error_at_key(
        "name", fmt::format("'{}' is not a valid region name (lower-case letters, digits, "
                            "'_', '.', '-')",
                            *name)));
  TableReader r(table, source, fmt::format("[[memory]] '{}'", *name));
  (void)r.string("name");
  ParsedRegion out{model::MemoryRegion{}, &table};
  out.region.name = *name;

  FATHOM_TRY(kind, r.required_string("kind"));
  if (*kind == "flash") {
    out.region.kind = model::MemoryKind::kFlash;
  } else if (*kind == "ram") {
    out.region.kind = model::MemoryKind::kRam;
  } else {
    return tl::unexpected(r.error_at_key(
        "kind",
        fmt::format("kind of [[memory]] '{}' is '{}'; use \"flash\" or \"ram\"", *name, *kind)));
  }
  FATHOM_TRY(origin, r.integer("origin", 0, kMaxU32));
  if (!*origin)
    return tl::unexpected(r.error_at(nullptr, fmt::format("[[memory]] '{}' is missing required "
                                                          "key 'origin'",
                                                          *name)));
  FATHOM_TRY(length, r.integer("length", 1, kMaxU32));
  if (!*length)
    return tl::unexpected(r.error_at(nullptr, fmt::format("[[memory]] '{}' is missing required "
                                                          "key 'length'",
                                                          *name)));
  if (**origin + **length > kAddressSpaceBytes)
    return tl::unexpected(r.error_at_key(
        "length", fmt::format("[[memory]] '{}' at 0x{:08x} with length 0x{:x} runs past the "
                              "end of the 32-bit address space",
                              *name, **origin, **length)));
  FATHOM_TRY(wait_states, r.integer("wait_states", 0, 64));
  out.region.origin = static_cast<uint32_t>(**origin);
  out.region.length_bytes = static_cast<uint32_t>(**length);
  out.region.wait_states = static_cast<uint32_t>(wait_states->value_or(0));
  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  return out;
}

std::string check_flag(std::string_view flag) {
  if (flag.size() < 2 || flag.front() != '-')
    return fmt::format("'{}' is not a compiler flag (flags start with '-')", flag);
  return "";
}

}  // namespace

util::Result<model::Board> parse_board(std::string_view text, std::string source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return util::fail(fmt::format("{}: {}", location(source_name, e.source()), e.description()));
  }
  TableReader r(root, source_name, "the board description");
  model::Board board;

  FATHOM_TRY(name, r.required_string("name"));
  if (!is_valid_name(*name))
    return tl::unexpected(r.error_at_key(
        "name", fmt::format("'{}' is not a valid board name (lower-case letters, digits, '_', "
                            "'.', '-')",
                            *name)));
  board.name = *name;
  FATHOM_TRY(description, r.string("description"));
  board.description = description->value_or("");

  FATHOM_TRY(core, r.required_string("core"));
  if (std::find(kSupportedCores.begin(), kSupportedCores.end(), *core) == kSupportedCores.end())
    return tl::unexpected(
        r.error_at_key("core", fmt::format("core '{}' is not supported; use one of: {}", *core,
                                           fmt::join(kSupportedCores, ", "))));
  board.core = *core;

  FATHOM_TRY(fpu, r.boolean("fpu"));
  board.has_fpu = fpu->value_or(false);
  FATHOM_TRY(dsp, r.boolean("dsp"));
  board.has_dsp = dsp->value_or(false);

  FATHOM_TRY(prefetch, r.boolean("prefetch"));
  board.prefetch = prefetch->value_or(true);
  FATHOM_TRY(icache, r.boolean("icache"));
  board.icache = icache->value_or(false);
  FATHOM_TRY(refinements, r.boolean("timing_refinements"));
  board.timing_refinements = refinements->value_or(model::Board{}.timing_refinements);
  FATHOM_TRY(multiplier, r.string("multiplier"));
  if (*multiplier) {
    if (**multiplier == "fast") {
      board.multiplier = model::Multiplier::kFast;
    } else if (**multiplier == "small") {
      board.multiplier = model::Multiplier::kSmall;
    } else {
      return tl::unexpected(r.error_at_key(
          "multiplier", fmt::format("multiplier is '{}'; use \"fast\" or \"small\"",
                                    **multiplier)));
    }
  }

  // 10 GHz is far above any Cortex-M; the bound catches a value typed in the wrong unit.
  FATHOM_TRY(clock, r.integer("clock_hz", 1, 10'000'000'000));
  if (!*clock)
    return tl::unexpected(r.error_at(nullptr,
                                     "the board description is missing required key "
                                     "'clock_hz' (the core clock in Hz, > 0)"));
  board.clock_hz = static_cast<uint64_t>(**clock);

  FATHOM_TRY(stack, r.integer("stack_bytes", 8, kMaxU32));
  if (!*stack)
    return tl::unexpected(r.error_at(nullptr,
                                     "the board description is missing required key "
                                     "'stack_bytes'"));
  if (**stack % 8 != 0)
    return tl::unexpected(r.error_at_key(
        "stack_bytes",
        fmt::format("stack_bytes is {}; it must be a multiple of 8 (AAPCS stack alignment)",
                    **stack)));
  board.stack_bytes = static_cast<uint32_t>(**stack);

  FATHOM_TRY(target, r.string("target"));
  if (*target) {
    auto kind = model::parse_target_kind(**target);
    if (!kind)
      return tl::unexpected(r.error_at_key(
          "target", fmt::format("target is '{}'; use \"sim\", \"qemu\" or \"serial\"",
                                **target)));
    board.target = *kind;
  }
  FATHOM_TRY(console_kind, r.string("console"));
  if (*console_kind) {
    auto kind = model::parse_console_kind(**console_kind);
    if (!kind)
      return tl::unexpected(r.error_at_key(
          "console", fmt::format("console is '{}'; use \"sim\", \"cmsdk-uart\" or \"uart\"",
                                 **console_kind)));
    board.console = *kind;
  }
  FATHOM_TRY(counter, r.string("cycle_counter"));
  if (*counter) {
    auto kind = model::parse_cycle_counter_kind(**counter);
    if (!kind)
      return tl::unexpected(r.error_at_key(
          "cycle_counter",
          fmt::format("cycle_counter is '{}'; use \"dwt\" (the DWT CYCCNT register)", **counter)));
    board.cycle_counter = *kind;
  }
  FATHOM_TRY(verified, r.boolean("verified_on_silicon"));
  board.verified_on_silicon = verified->value_or(true);

  FATHOM_TRY(console, r.integer("console_address", 0, kMaxU32 - 3));
  if (!*console && board.console != model::ConsoleKind::kBoardUart)
    return tl::unexpected(r.error_at(nullptr,
                                     "the board description is missing required key "
                                     "'console_address'"));
  board.console_address = static_cast<uint32_t>(console->value_or(0));
  if (board.target == model::TargetKind::kSim && !board.simulator_can_run())
    return tl::unexpected(r.error_at_key(
        "console", "a board whose console is its own UART (\"uart\") cannot run on the "
                   "simulator; set target = \"serial\""));

  FATHOM_TRY(qemu, r.table("qemu"));
  if (*qemu) {
    TableReader q(**qemu, source_name, "[qemu]");
    model::QemuSettings settings;
    FATHOM_TRY(machine, q.required_string("machine"));
    settings.machine = *machine;
    FATHOM_TRY(cpu, q.string("cpu"));
    settings.cpu = cpu->value_or("");
    if (auto ok = q.finish(); !ok) return tl::unexpected(ok.error());
    board.qemu = std::move(settings);
  } else if (board.target == model::TargetKind::kQemu) {
    return tl::unexpected(r.error_at_key(
        "target", "target is \"qemu\" but the board has no [qemu] table (machine = ...)"));
  }

  FATHOM_TRY(serial, r.table("serial"));
  if (*serial) {
    TableReader s(**serial, source_name, "[serial]");
    model::SerialSettings settings;
    FATHOM_TRY(port, s.string("port"));
    settings.port = port->value_or("");
    FATHOM_TRY(baud, s.integer("baud", 300, 20'000'000));
    settings.baud = static_cast<uint32_t>(baud->value_or(settings.baud));
    FATHOM_TRY(flash, s.string_array("flash"));
    if (!*flash || (*flash)->empty())
      return tl::unexpected(s.error_at(nullptr,
                                       "[serial] is missing required key 'flash' (the command "
                                       "that flashes an image, as an argv list with {elf}, "
                                       "{hex} or {bin})"));
    settings.flash = std::move(**flash);
    FATHOM_TRY(reset, s.string_array("reset"));
    if (*reset) settings.reset = std::move(**reset);
    FATHOM_TRY(probe, s.string("probe"));
    settings.probe = probe->value_or("");
    FATHOM_TRY(timeout, s.integer("timeout_seconds", 1, 7 * 24 * 3600));
    settings.timeout_seconds = static_cast<uint32_t>(timeout->value_or(settings.timeout_seconds));
    FATHOM_TRY(idle, s.integer("idle_timeout_seconds", 1, 24 * 3600));
    settings.idle_timeout_seconds =
        static_cast<uint32_t>(idle->value_or(settings.idle_timeout_seconds));
    if (auto ok = s.finish(); !ok) return tl::unexpected(ok.error());
    board.serial = std::move(settings);
  } else if (board.target == model::TargetKind::kSerial) {
    return tl::unexpected(r.error_at_key(
        "target", "target is \"serial\" but the board has no [serial] table (port, baud, "
                  "flash = [...])"));
  }

  FATHOM_TRY(cflags, r.string_array("cflags", check_flag, false));
  if (*cflags) board.cflags = std::move(**cflags);

  // The board layer's C sources and linker script, relative to the board's directory.
  FATHOM_TRY(firmware_sources, r.string_array("sources", nullptr, true));
  if (!*firmware_sources || (*firmware_sources)->empty())
    return tl::unexpected(r.error_at(nullptr,
                                     "the board description is missing required key "
                                     "'sources' (its startup and console C files)"));
  board.firmware_sources = std::move(**firmware_sources);
  FATHOM_TRY(linker_script, r.required_string("linker_script"));
  board.linker_script = *linker_script;

  FATHOM_TRY(memory, r.table_array("memory"));
  if (!*memory)
    return tl::unexpected(r.error_at(nullptr,
                                     "the board description has no [[memory]] "
                                     "regions; it needs one flash and at least one "
                                     "ram region"));
  std::vector<ParsedRegion> regions;
  for (const toml::node& node : **memory) {
    FATHOM_TRY(region, parse_region(*node.as_table(), source_name, regions.size()));
    for (const auto& earlier : regions) {
      const auto& a = earlier.region;
      const auto& b = region->region;
      auto error_here = [&](std::string message) {
        TableReader at(*region->table, source_name, "");
        return tl::unexpected(at.error_at(region->table->get("name"), message));
      };
      if (a.name == b.name)
        return error_here(fmt::format("memory region name '{}' is used twice", b.name));
      const uint64_t a_end = uint64_t{a.origin} + a.length_bytes;
      const uint64_t b_end = uint64_t{b.origin} + b.length_bytes;
      if (b.origin < a_end && a.origin < b_end)
        return error_here(fmt::format(
            "memory region '{}' [0x{:08x}, 0x{:09x}) overlaps region '{}' [0x{:08x}, 0x{:09x})",
            b.name, b.origin, b_end, a.name, a.origin, a_end));
    }
    regions.push_back(std::move(*region));
  }
  for (const auto& parsed : regions) board.memory.push_back(parsed.region);

  const auto flash_count = std::count_if(board.memory.begin(), board.memory.end(), [](auto& m) {
    return m.kind == model::MemoryKind::kFlash;
  });
  const auto ram_count = static_cast<long>(board.memory.size()) - flash_count;
  if (flash_count != 1)
    return tl::unexpected(r.error_at_key(
        "memory",
        fmt::format("the board has {} flash regions; it needs exactly one", flash_count)));
  if (ram_count < 1)
    return tl::unexpected(
        r.error_at_key("memory", "the board has no ram region; it needs at least one"));

  uint32_t largest_ram = 0;
  for (const auto& m : board.memory)
    if (m.kind == model::MemoryKind::kRam) largest_ram = std::max(largest_ram, m.length_bytes);
  if (board.stack_bytes > largest_ram)
    return tl::unexpected(r.error_at_key(
        "stack_bytes", fmt::format("stack_bytes {} does not fit in the largest ram region ({} "
                                   "bytes)",
                                   board.stack_bytes, largest_ram)));
  for (const auto& m : board.memory)
    if (board.console != model::ConsoleKind::kBoardUart &&
        board.console_address + uint64_t{4} > m.origin &&
        board.console_address < uint64_t{m.origin} + m.length_bytes)
      return tl::unexpected(r.error_at_key(
          "console_address",
          fmt::format("console_address 0x{:08x} lies inside memory region '{}'; put the "
                      "console register outside memory",
                      board.console_address, m.name)));

  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  return board;
}

#undef FATHOM_TRY

std::vector<std::string> list_boards(const std::filesystem::path& boards_dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(boards_dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_directory(ec) && std::filesystem::is_regular_file(it->path() / "board.toml", ec))
      names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

util::Result<model::Board> load_board(const std::filesystem::path& boards_dir,
                                      const std::string& name) {
  const auto available = list_boards(boards_dir);
  // Only names from the listing are joined to the path, so "../x" cannot escape boards_dir.
  if (std::find(available.begin(), available.end(), name) == available.end()) {
    if (available.empty())
      return util::fail(fmt::format("unknown board '{}': {} has no boards (no */board.toml)", name,
                                    boards_dir.string()));
    return util::fail(util::unknown_name_message("board", "boards", name, available));
  }
  const auto directory = boards_dir / name;
  const auto file = directory / "board.toml";
  std::ifstream in(file, std::ios::binary);
  if (!in) return util::fail(fmt::format("{}: cannot read the board description", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  auto board = parse_board(text.str(), file.string());
  if (!board) return board;
  if (board->name != name) {
    // The text parsed once already, so this parse cannot fail; it only locates `name`.
    const toml::table root = toml::parse(text.str(), file.string());
    return util::fail(
        fmt::format("{}: board name '{}' does not match its directory '{}'; "
                    "make them equal",
                    location(file.string(), root.get("name")->source()), board->name, name));
  }
  board->directory = directory;
  return board;
}

}  // namespace fathom::suite
