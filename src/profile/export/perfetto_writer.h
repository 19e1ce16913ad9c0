#pragma once
// Chrome Trace Event Format JSON (Perfetto UI, chrome://tracing):
//   {"traceEvents": [...], "displayTimeUnit": "ns",
//    "otherData": {"board", "clock_hz", "timing_model", "source", "time_basis"}}
// One process (pid 1, named after the set's source) and one thread per Profile (tid = index + 1,
// named after the operation), so profiles never share a track. Times are the board clock:
// ts = (start_cycles + at_cycles) / clock_hz in microseconds, rounded down to whole nanoseconds
// from absolute cycles so that calls that nest in cycles nest exactly in the file too. When
// clock_hz is 0 one cycle counts as one microsecond (otherData.time_basis says so).
//   - A Profile whose call trace stands for all of it (profile_views.h trace_gap) gives one "X" event per call (args.cycles = the call's raw
//     cycles, args.start_cycles = absolute cycles at entry) and a "C" counter event "stack"
//     ({"stack_bytes": N}) at every Enter and Leave.
//   - Any other Profile gives one "X" event per call-tree node (cat "call-tree"), children
//     laid out one after the other from their parent's start, sized by inclusive cycles and
//     clipped to the parent, so they still nest: every frame's self and total time are its
//     exclusive and inclusive cycles, without time order; the thread name says
//     "(aggregated per call path, no time order: <why>)".
#include "profile/export/profile_writer.h"

namespace fathom::profile {

class PerfettoWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

}  // namespace fathom::profile
