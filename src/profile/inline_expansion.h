#pragma once
// Inlined functions as frames of the call tree. The shadow call stack sees calls, and an inlined
// function is never called: its instructions sit inside the function it was inlined into and
// their cost is that function's exclusive cost. DWARF records where each inlined instance lies
// (DW_TAG_inlined_subroutine); this splits every node's exclusive cost by the inline chain of
// each address it executed, giving the node one child per inlined function (nested as DWARF
// nests them) that holds the cost of those instructions.
//
// Totals do not move: every node's inclusive cost is unchanged, and inclusive = exclusive +
// children's inclusive still holds for every node. Inlined nodes have `calls` 0 and frames
// with `inlined` set, named "function (inlined)"; file and line are where the function was
// first seen inlined. The call trace (Profile::events) is left as it is: it records calls.
#include "elf/debug_info.h"
#include "profile/profile.h"

namespace fathom::profile {

// Expands every profile of `set` that has per-node address costs (Profile::node_addresses:
// operations' profiles; the whole run's has none and is left as it is).
// Call after symbolize(). Returns the number of inlined nodes added over all profiles.
size_t expand_inlined(ProfileSet& set, elf::DebugInfo& debug);

}  // namespace fathom::profile
