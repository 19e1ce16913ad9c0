#pragma once
// The callgrind format (KCachegrind / QCachegrind, callgrind_annotate, speedscope's importer)
// with `positions: instr` and `events: Cycles Instructions`. Only the address is a position:
// speedscope's importer reads exactly one position column (it ignores `positions:`), so with a
// line column too it would take the line for the cycles; with one, all three readers read the
// same costs. Source lines are therefore not in the file (KCachegrind's source view is empty;
// its machine-code view works from `ob=`). Header in valgrind's order:
// `# callgrind format`, version, creator, cmd, desc lines, positions, event (long names),
// events, totals.
//
// One file holds ONE profile: the set's first. Callgrind has no notion of several independent
// spans, and merging operations would mix their costs, so the CLI selects the operation to write
// (a set with more profiles says in a `desc:` line how many were left out). An empty set gives
// a valid file with zero totals.
//
// Body: `ob=` the image (ProfileSet::object, when known), then per function (frame index order):
// `fl=` its file ("???" if unknown), `fn=` its name, then one self-cost line
// `0x<address> <cycles> <instructions>` per AddressCost, then per CallEdge of that caller `cfl=`
// `cfn=` `calls=<count> 0x<callee entry>` and the cost line
// `0x<call address> <inclusive cycles> <inclusive instructions>`. File and function names are
// compressed: `(id) name` at first use, `(id)` after. `totals:` is the sum of the self costs
// written. When a profile has no AddressCost, each function's self cost comes from the call
// tree's exclusive costs at the function's entry address.
#include "profile/export/profile_writer.h"

namespace fathom::profile {

class CallgrindWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

}  // namespace fathom::profile
