#pragma once
// The callgrind format (KCachegrind / QCachegrind, callgrind_annotate) with
// `positions: instr line` and `events: Cycles Instructions`. Header in valgrind's order:
// `# callgrind format`, version, creator, cmd, desc lines, positions, event (long names),
// events, totals.
//
// One file holds ONE profile: the set's first. Callgrind has no notion of several independent
// spans, and merging operations would mix their costs, so the CLI selects the operation to write
// (a set with more profiles says in a `desc:` line how many were left out). An empty set gives
// a valid file with zero totals.
//
// Body, per function (frame index order): `fl=` its file ("???" if unknown), `fn=` its name,
// then one self-cost line `0x<address> <line> <cycles> <instructions>` per AddressCost (with
// `fi=`/`fe=` where the address's source file differs from the function's), then per CallEdge
// of that caller `cfl=` `cfn=` `calls=<count> 0x<callee entry> <callee line>` and the cost line
// `0x<call address> <call line> <inclusive cycles> <inclusive instructions>`. File and function
// names are compressed: `(id) name` at first use, `(id)` after. `totals:` is the sum of the self
// costs written. When a profile has no AddressCost, each function's self cost comes from the
// call tree's exclusive costs at the function's entry address.
#include "profile/export/profile_writer.h"

namespace fathom::profile {

class CallgrindWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

}  // namespace fathom::profile
