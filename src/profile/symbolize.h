#pragma once
// Gives a profile's frames their function names and declaration lines, and its per-address
// costs and call sites their source lines, from the image's symbols and DWARF.
#include "elf/debug_info.h"
#include "profile/profile.h"

namespace fathom::profile {

// Names every frame: the function whose entry is its address; else a local code label at that
// address (elf::DebugInfo::label_at: a `bl` to a label inside an assembly function is named by
// the label, "__KeccakF1600_StateExtractLanes", not "KeccakF1600_StateExtractBytes+256"); else
// the containing function plus the offset, or the hex address. Assigns each AddressCost to the
// frame of its function (adding frames for functions only reached by a jump) — or, from a
// label frame's address up to the next label frame or the function's end, to the label's
// frame, as the call tree does — and fills file/line of addresses and call sites; unknown
// positions stay empty.
void symbolize(ProfileSet& set, elf::DebugInfo& debug);

}  // namespace fathom::profile
