#pragma once
// Gives a profile's frames their function names and declaration lines, and its per-address
// costs and call sites their source lines, from the image's symbols and DWARF.
#include "elf/debug_info.h"
#include "profile/profile.h"

namespace fathom::profile {

// Names every frame (the function containing its address, or the hex address), assigns each
// AddressCost to the frame of its function (adding frames for functions only reached by a
// jump) and fills file/line of addresses and call sites; unknown positions stay empty.
void symbolize(ProfileSet& set, elf::DebugInfo& debug);

}  // namespace fathom::profile
