#pragma once
// The file fathom's QEMU plugin writes at exit (src/target/qemu_plugin/fathom_probe_plugin.c):
// every load from the counter address, with the instructions retired and the console bytes
// written before it, and the run's totals.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "protocol/stream_decoder.h"
#include "target/simulator_memory.h"
#include "util/error.h"

namespace fathom::target {

struct QemuProbes {
  std::vector<protocol::PositionedProbe> probes;  // in the order the loads happened
  uint64_t total_instructions = 0;                // every instruction the guest executed
  uint64_t console_bytes = 0;                     // stores to the console's DATA register
  // Version 2 (the QEMU engine, src/target/qemu_engine): each probe carries the modelled
  // CYCCNT, the total the modelled cycles, and "stat" lines the engine's counters.
  std::optional<uint64_t> total_cycles;
  std::vector<std::pair<std::string, std::string>> stats;
  // With the engine's memory watch: one per operation execution ("watch" lines).
  std::vector<WatchedExecution> executions;
  // With the engine's primitive-share tracker ("share" lines): operation -> group -> (share of
  // its cycles, outermost calls per execution).
  std::map<std::string, std::map<std::string, std::pair<double, double>>> shares;
};

// Parses the plugin's output. Version 1 (fathom_probe_plugin.c): "fathom-qemu-probes 1",
// "probe <instructions> <console_bytes>" lines, one "total <instructions> <console_bytes>" line
// last. Version 2 (the engine): "fathom-qemu-probes 2", "probe <instructions> <console_bytes>
// <cyccnt>", "stat <name> <value>", "watch <operation> <call_address> <returned> <peak_stack>
// <deepest_pc> <unwritten_bytes> <heap_start> <heap_peak> <allocations>",
// "share\t<operation>\t<group>\t<share>\t<calls>" (tabs; C99 hex floats), "total <instructions>
// <console_bytes> <cycles>". Errors
// name the line: a wrong header, an unknown or malformed line, a plugin-reported error, no
// total line, or probes whose counts go backwards.
util::Result<QemuProbes> parse_qemu_probes(std::string_view text);

}  // namespace fathom::target
