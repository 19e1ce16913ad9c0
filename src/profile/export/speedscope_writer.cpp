#include "profile/export/speedscope_writer.h"

#include <fmt/core.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "profile/export/profile_views.h"
#include "util/version.h"

namespace fathom::profile {
namespace {

using Json = nlohmann::ordered_json;

std::string display_name(const Profile& profile, size_t index) {
  return profile.name.empty() ? fmt::format("profile {}", index + 1) : profile.name;
}

Json frame_json(const Frame& frame) {
  Json out;
  out["name"] = frame.name.empty() ? std::string("???") : frame.name;
  if (!frame.file.empty()) out["file"] = frame.file;
  if (frame.line != 0) out["line"] = frame.line;
  return out;
}

// `uses_unknown` is set when an event refers to the "unknown frame" index (= frame count).
Json evented_profile(const Profile& profile, size_t index, size_t frame_count, bool& uses_unknown) {
  const std::vector<TraceEvent> trace = checked_trace(profile, frame_count);
  std::string name = fmt::format("{} (cycles, call trace)", display_name(profile, index));
  uint64_t end_cycles = profile.total_cycles;
  Json events = Json::array();
  for (const TraceEvent& event : trace) {
    if (event.frame >= frame_count) uses_unknown = true;
    end_cycles = std::max(end_cycles, event.at_cycles);
    events.push_back(Json{{"type", event.kind == TraceEvent::Kind::kEnter ? "O" : "C"},
                          {"at", event.at_cycles},
                          {"frame", event.frame}});
  }
  Json out;
  out["type"] = "evented";
  out["name"] = std::move(name);
  out["unit"] = "none";
  out["startValue"] = 0;
  out["endValue"] = end_cycles;
  out["events"] = std::move(events);
  return out;
}

Json sampled_profile(const Profile& profile, size_t index, size_t frame_count,
                     const std::string& why, bool& uses_unknown) {
  Json samples = Json::array();
  Json weights = Json::array();
  uint64_t total_cycles = 0;
  for (const CallStack& stack : exclusive_stacks(profile, frame_count)) {
    for (uint32_t frame : stack.frames) uses_unknown |= frame >= frame_count;
    samples.push_back(stack.frames);
    weights.push_back(stack.exclusive_cycles);
    total_cycles += stack.exclusive_cycles;
  }
  Json out;
  out["type"] = "sampled";
  out["name"] = fmt::format("{} (cycles, aggregated per call path, no time order: {})",
                            display_name(profile, index), why);
  out["unit"] = "none";
  out["startValue"] = 0;
  out["endValue"] = total_cycles;
  out["samples"] = std::move(samples);
  out["weights"] = std::move(weights);
  return out;
}

}  // namespace

void SpeedscopeWriter::write(const ProfileSet& set, std::ostream& out) const {
  const size_t frame_count = set.frames.size();
  bool uses_unknown = false;
  Json profiles = Json::array();
  for (size_t i = 0; i < set.profiles.size(); ++i) {
    const Profile& profile = set.profiles[i];
    const std::string gap = trace_gap(set, profile);
    profiles.push_back(gap.empty() ? evented_profile(profile, i, frame_count, uses_unknown)
                                   : sampled_profile(profile, i, frame_count, gap, uses_unknown));
  }
  Json frames = Json::array();
  for (const Frame& frame : set.frames) frames.push_back(frame_json(frame));
  if (uses_unknown) frames.push_back(Json{{"name", "???"}});

  Json file;
  file["$schema"] = kSpeedscopeSchemaUrl;
  file["version"] = util::kToolVersion;
  file["exporter"] = fmt::format("fathom {}", util::kToolVersion);
  file["name"] = set.source.empty() ? std::string("fathom profile") : set.source;
  file["activeProfileIndex"] = 0;
  file["shared"] = Json{{"frames", std::move(frames)}};
  file["profiles"] = std::move(profiles);
  // Names come from ELF symbols: replace invalid UTF-8 rather than throw.
  out << file.dump(-1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::profile
