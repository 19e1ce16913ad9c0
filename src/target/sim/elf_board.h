#pragma once
// The simulator's board for a bare-metal ELF profiled without --board (`fathom profile
// FILE.elf`): the timing of the built-in board of the ELF's core (its build attributes,
// elf/build_attributes.h) with the memory map of the ELF's own program headers, so that an
// ordinary `arm-none-eabi-gcc --specs=rdimon.specs` program runs as linked, with no linker
// script for fathom:
//   - flash: the pages of the executable segments (and of the load images of data that the
//     startup code copies), read-only and executable as on a part;
//   - RAM: the pages of the other segments (.data, .bss), with `kHeapAndStackBytes` more above
//     them for the heap and the stack (semihosting's SYS_HEAPINFO reports the heap from the
//     ELF's `end` symbol and the stack at the top), or up to the initial stack pointer of the
//     ELF's vector table when that lies higher;
//   - boot: from the ELF's vector table when its first executable segment starts with one (an
//     aligned initial SP and an odd reset address inside its code), as the core does; else from
//     the ELF's entry point with the stack at the top of RAM, through a two-word vector table
//     that fathom writes in a page of flash added below the code (not part of the ELF).
#include <cstdint>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "util/error.h"

namespace fathom::target {

inline constexpr uint32_t kHeapAndStackBytes = 256 * 1024;

struct ElfBoard {
  model::Board board;
  // Written at board.flash()->origin after the ELF is loaded; empty when the ELF has its own.
  std::vector<uint8_t> vector_table;
  std::string layout;  // "flash 0x00007000-0x00011000, RAM 0x00011000-0x00052000, boot from the entry point 0x00008115"
};

// `timing` is the built-in board whose core and timing the run uses. Errors (a usage error
// each) when the ELF has no executable segment, its segments overlap the simulator's console
// or system space, or there is no room for the boot page.
util::Result<ElfBoard> board_from_elf(const elf::ElfImage& image, const model::Board& timing);

}  // namespace fathom::target
