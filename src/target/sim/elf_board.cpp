#include "target/sim/elf_board.h"

#include <fmt/core.h>

#include <algorithm>
#include <optional>

namespace fathom::target {
namespace {

constexpr uint64_t kPage = 4096;

uint64_t page_floor(uint64_t a) { return a / kPage * kPage; }
uint64_t page_ceil(uint64_t a) { return (a + kPage - 1) / kPage * kPage; }

struct Span {
  uint64_t begin = UINT64_MAX;
  uint64_t end = 0;
  bool empty() const { return begin >= end; }
  void add(uint64_t b, uint64_t e) {
    if (e <= b) return;
    begin = std::min(begin, b);
    end = std::max(end, e);
  }
  bool overlaps(uint64_t b, uint64_t e) const { return !empty() && b < end && begin < e; }
};

util::Error usage(const std::string& message) {
  util::Error e{message};
  e.is_usage = true;
  return e;
}

}  // namespace

util::Result<ElfBoard> board_from_elf(const elf::ElfImage& image, const model::Board& timing) {
  Span code, data;
  for (const auto& s : image.segments()) {
    if (s.executable) {
      code.add(s.load_address, uint64_t{s.load_address} + s.memory_size_bytes);
    } else {
      // Data whose load image sits elsewhere (copied by the startup code) has that image in
      // flash; the data itself in RAM.
      if (s.load_address != s.virtual_address)
        code.add(s.load_address, uint64_t{s.load_address} + s.data.size());
      data.add(s.virtual_address, uint64_t{s.virtual_address} + s.memory_size_bytes);
    }
  }
  if (code.empty())
    return tl::unexpected(usage("the ELF has no executable segment to run; give --board"));

  // The ELF's own vector table: at the start of its first executable segment, page-aligned.
  std::optional<uint32_t> initial_sp;
  if (code.begin % kPage == 0)
    if (auto words = image.read(static_cast<uint32_t>(code.begin), 8)) {
      const auto w = [&](int i) {
        return uint32_t{(*words)[4 * i]} | uint32_t{(*words)[4 * i + 1]} << 8 |
               uint32_t{(*words)[4 * i + 2]} << 16 | uint32_t{(*words)[4 * i + 3]} << 24;
      };
      const uint32_t sp = w(0), reset = w(1);
      const bool reset_in_code =
          (reset & 1u) && std::any_of(image.segments().begin(), image.segments().end(),
                                      [&](const auto& s) {
                                        return s.executable && (reset & ~1u) >= s.load_address &&
                                               (reset & ~1u) < uint64_t{s.load_address} + s.memory_size_bytes;
                                      });
      if (sp != 0 && sp % 4 == 0 && reset_in_code && !code.overlaps(sp - 4, sp)) initial_sp = sp;
    }

  uint64_t flash_begin = page_floor(code.begin);
  const uint64_t flash_end = page_ceil(code.end);
  if (!initial_sp) {
    if (flash_begin < kPage)
      return tl::unexpected(usage(fmt::format(
          "the ELF's code starts at {:#010x} without a vector table, leaving no page below it "
          "for fathom's boot vectors; give a board description (--board FILE)",
          code.begin)));
    flash_begin -= kPage;  // the boot page
  }

  // RAM: the data segments' pages and room for the heap and stack, or a region of that size
  // right above the code when the ELF has no data.
  uint64_t ram_begin, ram_end;
  if (data.empty()) {
    ram_begin = flash_end;
    ram_end = ram_begin + kHeapAndStackBytes;
  } else {
    ram_begin = page_floor(data.begin);
    ram_end = page_ceil(data.end) + kHeapAndStackBytes;
  }
  if (initial_sp) {
    const uint64_t sp = *initial_sp;
    if (data.empty() && (sp <= ram_begin || sp > ram_end)) {
      // No data segment: the RAM is the stack's, below the initial SP.
      ram_end = page_ceil(sp);
      ram_begin = ram_end >= kHeapAndStackBytes ? ram_end - kHeapAndStackBytes : 0;
    } else if (sp > ram_end && sp - ram_end <= 64u * 1024 * 1024) {
      ram_end = page_ceil(sp);
    } else if (sp <= ram_begin || sp > ram_end) {
      return tl::unexpected(usage(fmt::format(
          "the ELF's initial stack pointer {:#010x} is far from its data ({:#010x}-{:#010x}); "
          "give a board description (--board FILE)",
          sp, data.begin, data.end)));
    }
  }
  if (ram_begin < flash_end && flash_begin < ram_end)
    return tl::unexpected(usage(fmt::format(
        "the ELF's code ({:#010x}-{:#010x}) and data ({:#010x}-{:#010x}) share pages; give a "
        "board description (--board FILE)",
        code.begin, code.end, data.begin, data.end)));
  if (ram_end > 0xE0000000ull || flash_end > 0xE0000000ull)
    return tl::unexpected(usage("the ELF's memory reaches the system control space (0xE0000000); "
                                "give a board description (--board FILE)"));
  const Span fixed{timing.console_address, uint64_t{timing.console_address} + kPage};
  if (fixed.overlaps(flash_begin, flash_end) || fixed.overlaps(ram_begin, ram_end))
    return tl::unexpected(usage(fmt::format(
        "the ELF's memory overlaps the simulator's console at {:#010x}; give a board "
        "description (--board FILE)",
        timing.console_address)));

  ElfBoard out;
  out.board = timing;
  out.board.name = timing.name + " (memory map from the ELF)";
  out.board.directory.clear();
  const model::MemoryRegion* base_flash = timing.flash();
  model::MemoryRegion flash{"flash", model::MemoryKind::kFlash, static_cast<uint32_t>(flash_begin),
                            static_cast<uint32_t>(flash_end - flash_begin),
                            base_flash ? base_flash->wait_states : 0};
  model::MemoryRegion ram{"ram", model::MemoryKind::kRam, static_cast<uint32_t>(ram_begin),
                          static_cast<uint32_t>(ram_end - ram_begin), 0};
  out.board.memory = {flash, ram};
  std::string boot;
  if (initial_sp) {
    boot = fmt::format("boot from the ELF's vector table at {:#010x}", flash_begin);
  } else {
    const uint32_t sp = static_cast<uint32_t>(ram_end);
    const uint32_t pc = image.entry() | 1u;
    for (uint32_t word : {sp, pc})
      for (int i = 0; i < 4; ++i) out.vector_table.push_back(static_cast<uint8_t>(word >> (8 * i)));
    boot = fmt::format("boot from the entry point {:#010x}, stack at {:#010x}", image.entry(), sp);
  }
  out.layout = fmt::format("flash {:#010x}-{:#010x}, RAM {:#010x}-{:#010x}, {}", flash_begin,
                           flash_end, ram_begin, ram_end, boot);
  return out;
}

}  // namespace fathom::target
