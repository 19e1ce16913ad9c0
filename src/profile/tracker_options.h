#pragma once
// The call tracker's options for a fathom image: every function symbol's entry (to recognise
// tail calls and name frames) and each harness operation's run function as a profiled span.
// What `fathom profile` and `fathom bench` attach; a plain ELF (no operation table) gets the
// function entries and no spans.
#include "elf/elf_image.h"
#include "profile/call_tracker.h"

namespace fathom::profile {

TrackerOptions tracker_options_for(const elf::ElfImage& image);

}  // namespace fathom::profile
