#pragma once
// Where each taint finding is (profile/taint_tracker.h), for the report: function, source line
// and the instruction as assembly text.
#include <cstdint>
#include <string>
#include <vector>

#include "elf/debug_info.h"
#include "elf/elf_image.h"
#include "profile/taint_tracker.h"

namespace fathom::profile {

struct TaintSite {
  TaintFinding finding;
  std::string function;     // "" if no symbol covers the address
  uint32_t offset = 0;      // from the function's entry
  std::string file;         // "" without DWARF for the address
  uint32_t line = 0;
  std::string instruction;  // "ldr r3, [r2, r1, lsl #2]"
  std::string allowed;      // the reason an --allow entry gives; "" = not allowed
};

// `findings` named from `image` and, when it has DWARF, `debug` (may be null).
std::vector<TaintSite> name_taint_sites(const std::vector<TaintFinding>& findings,
                                        const elf::ElfImage& image, elf::DebugInfo* debug);

}  // namespace fathom::profile
