#pragma once
// A ProfileSet as text, losslessly: what fathom's QEMU engine (src/target/qemu_engine) writes
// at exit when it runs `fathom profile`'s call tracker, and what the host reads back, so a
// profile made on QEMU is the very structure the simulator's tracker returns (frames, call
// tree, per-address and per-node-address costs, call edges, trace, executions).
//
// Format (one record per line, fields separated by a TAB; strings escaped: \\ \t \n):
//   fathom-profile 1
//   set      <clock_hz> <source> <object> <board> <timing_model>
//   frame    <address> <line> <inlined 0|1> <exception_handler 0|1> <name> <file>
//   profile  <start_cycles> <total_cycles> <total_instructions> <trace_truncated 0|1>
//            <trace_event_limit> <peak_stack_bytes> <name>
//   node     <frame> <parent|-1> <calls> <incl_cycles> <excl_cycles> <incl_insns> <excl_insns>
//            <children, comma-separated, "-" for none>
//   address  <frame> <address> <line> <cycles> <instructions> <file>
//   nodeaddr <node> <address> <cycles> <instructions>
//   edge     <caller> <callee> <call_address> <call_line> <calls> <incl_cycles> <incl_insns>
//            <call_file>
//   event    <E|L> <frame> <at_cycles> <stack_bytes>
//   exec     <cycles>
//   end
// Records after a `profile` line belong to it. Every index is checked against what came
// before (a frame index against the frames, a node's parent and children against its profile's
// nodes), so a damaged file is an error naming its line, never a profile that points nowhere.
#include <ostream>
#include <string_view>

#include "profile/profile.h"
#include "util/error.h"

namespace fathom::profile {

void write_profile_file(const ProfileSet& set, std::ostream& out);

// Errors: "profile file line N: what ('text')" for a wrong header, an unknown record, a
// malformed field, an index out of range, or no `end` line (a file cut short).
util::Result<ProfileSet> parse_profile_file(std::string_view text);

}  // namespace fathom::profile
