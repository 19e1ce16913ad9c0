#pragma once
// The call tracker's options for a fathom image: every function symbol's entry (to recognise
// tail calls and name frames) and each harness operation's run function as a profiled span.
// What `fathom profile`, `fathom diagnose` and `fathom bench` attach; a plain ELF (no operation
// table) gets the function entries and no spans.
//
// Where the first timed run cannot measure stack and heap (a board; docs/PROTOCOL.md "Where
// memory is measured"), the harness runs each operation once more after its timed runs, from
// `memory_run` (firmware/harness/fathom_harness.c). That execution is not timed, so it is kept
// out of the operation's profile (TrackerOptions::excluded_callers): an operation's profile
// sums exactly the executions the harness timed (and warm-ups, when a run has them).
#include "elf/elf_image.h"
#include "profile/call_tracker.h"

namespace fathom::profile {

TrackerOptions tracker_options_for(const elf::ElfImage& image);

// The entry of the harness's memory_run (a GCC clone of it, "memory_run.constprop.0", counts
// too), or 0 when the image has none.
uint32_t memory_run_entry(const elf::ElfImage& image);

}  // namespace fathom::profile
