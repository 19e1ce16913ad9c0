#pragma once
// Collapsed ("folded") stacks for flamegraph.pl, inferno, speedscope and Perfetto: one line per
// unique stack, `root;caller;…;leaf <cycles>`, the count being the leaf's self (exclusive)
// cycles, from the call tree (every node with non-zero exclusive cycles). When the set holds
// several profiles each stack starts with the operation's name as an extra outermost frame, so
// the operations stay apart — except where that name is the profile's own root frame's (an ELF
// profiled with --function NAME): a root frame is never repeated, as long as no other profile's
// stacks start with the same name. In frame and operation names ';' becomes '_' and line breaks and
// tabs become spaces (the separators of the format); an empty name becomes "???". Lines with the
// same text are merged (counts added), in order of first appearance.
#include <cstdint>
#include <string>
#include <vector>

#include "profile/export/profile_writer.h"

namespace fathom::profile {

class FoldedWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

struct FoldedStack {
  std::string stack;  // "op;root;…;leaf", already made safe for the format
  uint64_t cycles = 0;
};

// The lines FoldedWriter writes for `set`, with the operation prefix when `prefix_operation`.
std::vector<FoldedStack> folded_stacks(const ProfileSet& set, bool prefix_operation);

// A differential folded file (flamegraph.pl's difffolded.pl / inferno-diff-folded input):
// `stack <before cycles> <after cycles>` for the union of both sets' stacks, 0 where a stack is
// absent, in order of first appearance in `before` then `after`. The operation prefix is used
// when either set has several profiles, so both sides name their stacks the same way.
void write_folded_diff(const ProfileSet& before, const ProfileSet& after, std::ostream& out);

}  // namespace fathom::profile
