#include "profile/export/callgrind_writer.h"

#include <fmt/core.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "profile/export/profile_views.h"
#include "util/version.h"

namespace fathom::profile {
namespace {

// A value ends at the line's end: no line break may hide in a name or description.
std::string one_line(std::string text) {
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

// Name compression: a name gets an id at first use ("(3) name"), later uses print "(3)".
// Files (fl, fi, fe, cfl) and functions (fn, cfn) have separate tables, as in callgrind.
class NameTable {
 public:
  std::string reference(const std::string& name) {
    auto [it, inserted] = ids_.try_emplace(name, ids_.size() + 1);
    if (inserted) return fmt::format("({}) {}", it->second, name);
    return fmt::format("({})", it->second);
  }

 private:
  std::map<std::string, size_t> ids_;
};

// Functions are named per frame index, so two frames of the same name stay two functions.
class FunctionTable {
 public:
  std::string reference(uint32_t frame, const std::string& name) {
    auto [it, inserted] = ids_.try_emplace(frame, ids_.size() + 1);
    if (inserted) return fmt::format("({}) {}", it->second, name);
    return fmt::format("({})", it->second);
  }

 private:
  std::map<uint32_t, size_t> ids_;
};

struct FrameInfo {
  std::string name;
  std::string file;  // "???" if unknown
  uint32_t address = 0;
  uint32_t line = 0;
};

FrameInfo frame_info(const ProfileSet& set, uint32_t frame) {
  FrameInfo info{one_line(frame_name(set, frame)), "???", 0, 0};
  if (frame < set.frames.size()) {
    const Frame& f = set.frames[frame];
    if (!f.file.empty()) info.file = one_line(f.file);
    info.address = f.address;
    info.line = f.line;
  }
  return info;
}

// Self costs of one profile, per frame (frame.size() = unknown frame), sorted by address.
std::map<uint32_t, std::vector<AddressCost>> self_costs(const ProfileSet& set,
                                                        const Profile& profile) {
  const auto unknown = static_cast<uint32_t>(set.frames.size());
  std::map<uint32_t, std::vector<AddressCost>> by_frame;
  if (!profile.addresses.empty()) {
    for (AddressCost cost : profile.addresses) {
      if (cost.frame >= set.frames.size()) cost.frame = unknown;
      by_frame[cost.frame].push_back(std::move(cost));
    }
  } else {
    // No per-address costs: the call tree's exclusive cost, at each function's entry.
    walk_call_tree(profile, [&](uint32_t index, uint32_t) {
      const CallNode& node = profile.nodes[index];
      if (node.exclusive_cycles == 0 && node.exclusive_instructions == 0) return;
      const uint32_t frame = node.frame < set.frames.size() ? node.frame : unknown;
      auto& costs = by_frame[frame];
      if (costs.empty()) {
        const FrameInfo info = frame_info(set, frame);
        costs.push_back({frame, info.address, "", info.line, 0, 0});
      }
      costs.front().cycles += node.exclusive_cycles;
      costs.front().instructions += node.exclusive_instructions;
    });
  }
  for (auto& [frame, costs] : by_frame)
    std::stable_sort(costs.begin(), costs.end(), [](const AddressCost& a, const AddressCost& b) {
      return a.address < b.address;
    });
  return by_frame;
}

std::map<uint32_t, std::vector<CallEdge>> calls_by_caller(const ProfileSet& set,
                                                          const Profile& profile) {
  const auto unknown = static_cast<uint32_t>(set.frames.size());
  std::map<uint32_t, std::vector<CallEdge>> by_caller;
  for (CallEdge edge : profile.edges) {
    if (edge.caller_frame >= set.frames.size()) edge.caller_frame = unknown;
    if (edge.callee_frame >= set.frames.size()) edge.callee_frame = unknown;
    by_caller[edge.caller_frame].push_back(std::move(edge));
  }
  for (auto& [frame, edges] : by_caller)
    std::stable_sort(edges.begin(), edges.end(), [](const CallEdge& a, const CallEdge& b) {
      return std::tie(a.call_address, a.callee_frame) < std::tie(b.call_address, b.callee_frame);
    });
  return by_caller;
}

void write_header(const ProfileSet& set, const Profile* profile, uint64_t total_cycles,
                  uint64_t total_instructions, std::ostream& out) {
  fmt::print(out, "# callgrind format\n");
  fmt::print(out, "version: 1\n");
  fmt::print(out, "creator: fathom {}\n", util::kToolVersion);
  fmt::print(out, "cmd: {}\n", set.source.empty() ? std::string("fathom") : one_line(set.source));
  fmt::print(out, "desc: Operation: {}\n",
             profile == nullptr ? std::string("(none)") : one_line(profile->name));
  if (!set.board.empty()) fmt::print(out, "desc: Board: {}\n", one_line(set.board));
  if (set.clock_hz != 0) fmt::print(out, "desc: Clock: {} Hz\n", set.clock_hz);
  if (set.profiles.size() > 1)
    fmt::print(out,
               "desc: Profiles not written: {} (a callgrind file holds one operation; select "
               "another operation to write it)\n",
               set.profiles.size() - 1);
  // callgrind_annotate reads `events:` as the last line of the header proper (before totals:),
  // as valgrind writes it: cmd: and desc: must come before it.
  // Addresses only: speedscope's importer takes the first column of a cost line as the one
  // position and the next ones as the events, whatever `positions:` says, so a second position
  // column would be read as cycles there (docs/PROFILER.md).
  fmt::print(out, "positions: instr\n");
  fmt::print(out, "event: Cycles : CPU cycles (timing model {})\n",
             set.timing_model.empty() ? std::string("unknown") : one_line(set.timing_model));
  fmt::print(out, "event: Instructions : Instructions executed\n");
  fmt::print(out, "events: Cycles Instructions\n");
  fmt::print(out, "totals: {} {}\n", total_cycles, total_instructions);
}

}  // namespace

void CallgrindWriter::write(const ProfileSet& set, std::ostream& out) const {
  if (set.profiles.empty()) {
    write_header(set, nullptr, 0, 0, out);
    return;
  }
  const Profile& profile = set.profiles.front();
  const auto costs = self_costs(set, profile);
  const auto calls = calls_by_caller(set, profile);
  uint64_t total_cycles = 0;
  uint64_t total_instructions = 0;
  for (const auto& [frame, list] : costs)
    for (const AddressCost& cost : list) {
      total_cycles += cost.cycles;
      total_instructions += cost.instructions;
    }
  write_header(set, &profile, total_cycles, total_instructions, out);

  std::vector<uint32_t> functions;  // every frame with self cost or outgoing calls, in order
  for (const auto& [frame, list] : costs) functions.push_back(frame);
  for (const auto& [frame, list] : calls) functions.push_back(frame);
  std::sort(functions.begin(), functions.end());
  functions.erase(std::unique(functions.begin(), functions.end()), functions.end());

  NameTable files;
  FunctionTable names;
  // The image, so that KCachegrind's machine-code view can disassemble it (objdump).
  if (!set.object.empty()) fmt::print(out, "\nob={}\n", one_line(set.object));
  for (uint32_t frame : functions) {
    const FrameInfo function = frame_info(set, frame);
    fmt::print(out, "\nfl={}\n", files.reference(function.file));
    fmt::print(out, "fn={}\n", names.reference(frame, function.name));
    if (auto it = costs.find(frame); it != costs.end())
      for (const AddressCost& cost : it->second)
        fmt::print(out, "{:#x} {} {}\n", cost.address, cost.cycles, cost.instructions);
    if (auto it = calls.find(frame); it != calls.end())
      for (const CallEdge& edge : it->second) {
        const FrameInfo callee = frame_info(set, edge.callee_frame);
        fmt::print(out, "cfl={}\n", files.reference(callee.file));
        fmt::print(out, "cfn={}\n", names.reference(edge.callee_frame, callee.name));
        fmt::print(out, "calls={} {:#x}\n", edge.calls, callee.address);
        fmt::print(out, "{:#x} {} {}\n", edge.call_address, edge.inclusive_cycles,
                   edge.inclusive_instructions);
      }
  }
}

}  // namespace fathom::profile
