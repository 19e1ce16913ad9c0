#pragma once
// The profile model: where the cycles of one run went, per function, per call path, per
// instruction address and source line, plus (optionally) the ordered call trace. Filled by the
// simulator's shadow call stack (src/profile/call_tracker.h) and read by the exporters in
// src/profile/export/. All costs are the timing model's cycles and executed instructions.
#include <cstdint>
#include <string>
#include <vector>

namespace fathom::profile {

// A function (or an inlined function instance's origin), shared by every profile of a set.
struct Frame {
  std::string name;       // symbol name, or "0x0800123a" when the address has no symbol
  std::string file;       // source file of the function's entry, "" if unknown
  uint32_t line = 0;      // source line of the function's entry, 0 if unknown
  uint32_t address = 0;   // entry address (Thumb bit clear); 0 for an inlined function
  // An inlined function (profile/inline_expansion.h): its nodes hold the cost of the
  // instructions DWARF says came from it, inside the function it was inlined into. It is
  // never called, so its nodes have `calls` 0; file/line are where it was inlined.
  bool inlined = false;
  // An exception handler (entered by the core, e.g. on SVC, not called): reports may say so.
  bool exception_handler = false;
};

// One node of the call tree: a function reached by one particular call path.
struct CallNode {
  uint32_t frame = 0;            // index into ProfileSet::frames
  int32_t parent = -1;           // index into Profile::nodes; -1 for the root
  std::vector<uint32_t> children;
  uint64_t calls = 0;            // times this path was entered
  uint64_t inclusive_cycles = 0;
  uint64_t exclusive_cycles = 0;
  uint64_t inclusive_instructions = 0;
  uint64_t exclusive_instructions = 0;
};

// Self cost at one instruction address (aggregated over every execution of it).
struct AddressCost {
  uint32_t frame = 0;      // function the address belongs to
  uint32_t address = 0;
  std::string file;        // source position of the address ("" / 0 if unknown)
  uint32_t line = 0;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
};

// Self cost at one instruction address under one call-tree node (Profile::nodes index).
struct NodeAddressCost {
  uint32_t node = 0;
  uint32_t address = 0;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
};

// All calls from one call site to one callee.
struct CallEdge {
  uint32_t caller_frame = 0;
  uint32_t callee_frame = 0;
  uint32_t call_address = 0;  // address of the calling instruction
  std::string call_file;
  uint32_t call_line = 0;
  uint64_t calls = 0;
  uint64_t inclusive_cycles = 0;  // cost of those calls, callee and everything below it
  uint64_t inclusive_instructions = 0;
};

// A function entered or left, at a cycle count relative to the profile's start.
struct TraceEvent {
  enum class Kind : uint8_t { kEnter, kLeave };
  Kind kind = Kind::kEnter;
  uint32_t frame = 0;
  uint64_t at_cycles = 0;
  uint32_t stack_bytes = 0;  // bytes of stack in use (initial SP - SP) at the event
};

// One profiled span: one operation (or the whole run).
struct Profile {
  std::string name;              // "ecdh_p256_shared" or "whole run"
  uint64_t start_cycles = 0;     // absolute model cycles at the span's start
  uint64_t total_cycles = 0;     // cycles in the span (= root node inclusive cycles)
  uint64_t total_instructions = 0;
  std::vector<CallNode> nodes;   // nodes[0] is the root (the span's outermost function)
  std::vector<AddressCost> addresses;
  // The same self costs split by call-tree node, sorted by (node, address); their sum per
  // node is the node's exclusive cost. What inline expansion splits a node by. Operations'
  // profiles have it; the whole-run profile does not (its inlined code stays in its host).
  std::vector<NodeAddressCost> node_addresses;
  std::vector<CallEdge> edges;
  // The ordered call trace of the span's first execution, nested: every kEnter is matched by a
  // later kLeave of the same frame in stack order, `at_cycles` never decreases, and the trace
  // starts and ends at depth zero. Empty when tracing was off, and when the trace would have
  // exceeded the tracker's event limit: then `trace_truncated` is set and `trace_event_limit`
  // says what the limit was (a partial trace would misplace the cost of every call it leaves
  // out, so none is kept; the call tree is complete either way).
  std::vector<TraceEvent> events;
  bool trace_truncated = false;
  size_t trace_event_limit = 0;
  uint32_t peak_stack_bytes = 0;  // deepest SP seen in the span, in bytes below the initial SP
  std::vector<uint64_t> execution_cycles;  // inclusive cycles of each execution of the span
  // Instructions and the deepest SP (bytes below the initial SP) of each execution, beside
  // execution_cycles, where the simulator's tracker measured them (`fathom profile --function`);
  // not in the profile files or exports.
  std::vector<uint64_t> execution_instructions;
  std::vector<uint32_t> execution_peak_stack_bytes;
};

struct ProfileSet {
  std::string source;       // what ran: "mbedtls on sim-m33" or an ELF path
  std::string object;       // the ELF file that ran (absolute path), "" if unknown
  std::string board;
  uint64_t clock_hz = 0;    // board clock, to convert cycles to time
  std::string timing_model;
  std::vector<Frame> frames;
  std::vector<Profile> profiles;
};

}  // namespace fathom::profile
