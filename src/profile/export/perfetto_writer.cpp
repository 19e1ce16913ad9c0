#include "profile/export/perfetto_writer.h"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "profile/export/profile_views.h"

namespace fathom::profile {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kPid = 1;

// Converts absolute model cycles to whole nanoseconds at the board clock. Monotone, so nesting
// in cycles is nesting in nanoseconds. 128-bit so that cycles * 1e9 cannot overflow.
class Clock {
 public:
  explicit Clock(uint64_t clock_hz) : clock_hz_(clock_hz) {}
  uint64_t nanoseconds(uint64_t cycles) const {
    if (clock_hz_ == 0) return cycles * 1000;  // no clock: 1 cycle = 1 µs
    const unsigned __int128 ns = static_cast<unsigned __int128>(cycles) * 1000000000u / clock_hz_;
    return static_cast<uint64_t>(ns);
  }

 private:
  uint64_t clock_hz_;
};

double microseconds(uint64_t nanoseconds) { return static_cast<double>(nanoseconds) / 1000.0; }

Json metadata(const char* what, int tid, Json args) {
  return Json{{"name", what}, {"ph", "M"}, {"pid", kPid}, {"tid", tid}, {"args", std::move(args)}};
}

Json complete_event(const std::string& name, const char* category, int tid, const Clock& clock,
                    uint64_t start_cycles, uint64_t end_cycles) {
  const uint64_t start_ns = clock.nanoseconds(start_cycles);
  const uint64_t end_ns = clock.nanoseconds(end_cycles);
  return Json{{"name", name},
              {"cat", category},
              {"ph", "X"},
              {"ts", microseconds(start_ns)},
              {"dur", microseconds(end_ns - start_ns)},
              {"pid", kPid},
              {"tid", tid}};
}

Json source_args(const ProfileSet& set, uint32_t frame) {
  Json args = Json::object();
  if (frame < set.frames.size()) {
    if (!set.frames[frame].file.empty()) args["file"] = set.frames[frame].file;
    if (set.frames[frame].line != 0) args["line"] = set.frames[frame].line;
  }
  return args;
}

void add_traced_calls(const ProfileSet& set, const Profile& profile, int tid, const Clock& clock,
                      Json& events) {
  struct Open {
    uint32_t frame;
    uint64_t at_cycles;
    size_t event_index;  // position of its X event in `events`
  };
  std::vector<Open> open;
  for (const TraceEvent& event : checked_trace(profile, set.frames.size())) {
    const uint64_t absolute = profile.start_cycles + event.at_cycles;
    if (event.kind == TraceEvent::Kind::kEnter) {
      // Emitted at entry (so parents precede children at equal ts); `dur` filled at the Leave.
      open.push_back({event.frame, event.at_cycles, events.size()});
      events.push_back(
          complete_event(frame_name(set, event.frame), "call", tid, clock, absolute, absolute));
    } else if (!open.empty()) {  // checked_trace guarantees the match
      const Open call = open.back();
      open.pop_back();
      const uint64_t entry = profile.start_cycles + call.at_cycles;
      Json& x = events[call.event_index];
      x["dur"] = microseconds(clock.nanoseconds(absolute) - clock.nanoseconds(entry));
      Json args = Json{{"cycles", event.at_cycles - call.at_cycles}, {"start_cycles", entry}};
      args.update(source_args(set, call.frame));
      x["args"] = std::move(args);
    }
    events.push_back(Json{{"name", "stack"},
                          {"ph", "C"},
                          {"ts", microseconds(clock.nanoseconds(absolute))},
                          {"pid", kPid},
                          {"tid", tid},
                          {"args", {{"stack_bytes", event.stack_bytes}}}});
  }
}

void add_call_tree(const ProfileSet& set, const Profile& profile, int tid, const Clock& clock,
                   Json& events) {
  if (profile.nodes.empty()) return;
  // Span of each node in cycles relative to the profile's start; assigned by the parent.
  struct Span {
    uint64_t start = 0;
    uint64_t end = 0;
    bool assigned = false;
  };
  std::vector<Span> spans(profile.nodes.size());
  spans[0] = {0, profile.nodes[0].inclusive_cycles, true};
  walk_call_tree(profile, [&](uint32_t index, uint32_t /*depth*/) {
    const CallNode& node = profile.nodes[index];
    const Span span = spans[index];
    uint64_t cursor = span.start;
    for (uint32_t child : node.children) {
      if (child >= spans.size() || spans[child].assigned) continue;
      const uint64_t length = std::min(profile.nodes[child].inclusive_cycles, span.end - cursor);
      spans[child] = {cursor, cursor + length, true};
      cursor += length;
    }
    Json x = complete_event(frame_name(set, node.frame), "call-tree", tid, clock,
                            profile.start_cycles + span.start, profile.start_cycles + span.end);
    Json args = Json{{"cycles", node.inclusive_cycles},
                     {"start_cycles", profile.start_cycles + span.start},
                     {"calls", node.calls},
                     {"exclusive_cycles", node.exclusive_cycles},
                     {"inclusive_instructions", node.inclusive_instructions}};
    args.update(source_args(set, node.frame));
    x["args"] = std::move(args);
    events.push_back(std::move(x));
  });
}

std::string thread_name(const Profile& profile, size_t index, const std::string& gap) {
  std::string name = profile.name.empty() ? fmt::format("profile {}", index + 1) : profile.name;
  if (!gap.empty()) name += fmt::format(" (aggregated per call path, no time order: {})", gap);
  return name;
}

}  // namespace

void PerfettoWriter::write(const ProfileSet& set, std::ostream& out) const {
  const Clock clock(set.clock_hz);
  Json events = Json::array();
  events.push_back(metadata("process_name", 0,
                            {{"name", set.source.empty() ? std::string("fathom") : set.source}}));
  std::vector<std::string> gaps;
  for (const Profile& profile : set.profiles) gaps.push_back(trace_gap(set, profile));
  for (size_t i = 0; i < set.profiles.size(); ++i) {
    const int tid = static_cast<int>(i) + 1;
    events.push_back(
        metadata("thread_name", tid, {{"name", thread_name(set.profiles[i], i, gaps[i])}}));
    events.push_back(metadata("thread_sort_index", tid, {{"sort_index", i}}));
  }
  for (size_t i = 0; i < set.profiles.size(); ++i) {
    const Profile& profile = set.profiles[i];
    const int tid = static_cast<int>(i) + 1;
    if (!gaps[i].empty())
      add_call_tree(set, profile, tid, clock, events);
    else
      add_traced_calls(set, profile, tid, clock, events);
  }

  Json file;
  file["traceEvents"] = std::move(events);
  file["displayTimeUnit"] = "ns";
  file["otherData"] =
      Json{{"board", set.board},
           {"clock_hz", set.clock_hz},
           {"timing_model", set.timing_model},
           {"source", set.source},
           {"time_basis", set.clock_hz == 0 ? std::string("no board clock: 1 cycle = 1 us")
                                            : fmt::format("cycles at {} Hz", set.clock_hz)}};
  // Names come from ELF symbols: replace invalid UTF-8 rather than throw.
  out << file.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::profile
