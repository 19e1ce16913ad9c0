#include "profile/export/speedscope_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <set>
#include <sstream>

#include "profile/function_summary.h"
#include "profile_fixture.h"

namespace fathom::profile {
namespace {

using nlohmann::json;

json render(const ProfileSet& set) {
  std::ostringstream out;
  SpeedscopeWriter().write(set, out);
  return json::parse(out.str());  // throws (fails the test) on invalid JSON
}

// The format's rules for an evented profile: frames in range, `at` non-decreasing, every O
// closed by a C of the same frame in stack order, start/end values bracketing every event.
void expect_valid_evented(const json& profile, size_t frame_count) {
  ASSERT_EQ(profile["type"], "evented");
  EXPECT_EQ(profile["unit"], "none");
  const uint64_t start = profile["startValue"];
  const uint64_t end = profile["endValue"];
  std::vector<uint64_t> open;
  uint64_t previous_at = start;
  for (const json& event : profile["events"]) {
    const uint64_t frame = event["frame"];
    const uint64_t at = event["at"];
    EXPECT_LT(frame, frame_count);
    EXPECT_GE(at, previous_at) << "`at` decreased";
    EXPECT_LE(at, end);
    previous_at = at;
    if (event["type"] == "O") {
      open.push_back(frame);
    } else {
      ASSERT_EQ(event["type"], "C");
      ASSERT_FALSE(open.empty()) << "C without an open frame at " << at;
      EXPECT_EQ(open.back(), frame) << "C out of stack order at " << at;
      open.pop_back();
    }
  }
  EXPECT_TRUE(open.empty()) << "frames left open";
}

TEST(SpeedscopeWriter, FileHasTheSchemaAndTheSharedFrames) {
  const json file = render(fixture::two_profiles());
  EXPECT_EQ(file["$schema"], "https://www.speedscope.app/file-format-schema.json");
  EXPECT_EQ(file["name"], "mbedtls on sim-m33");
  const json& frames = file["shared"]["frames"];
  ASSERT_EQ(frames.size(), 4u);
  EXPECT_EQ(frames[fixture::kC]["name"], "c");
  EXPECT_EQ(frames[fixture::kC]["file"], "c.c");
  EXPECT_EQ(frames[fixture::kC]["line"], 40);
  ASSERT_EQ(file["profiles"].size(), 2u);
  EXPECT_LT(file["activeProfileIndex"].get<size_t>(), file["profiles"].size());
}

TEST(SpeedscopeWriter, TracedProfileIsEventedNestedAndInCycles) {
  const json file = render(fixture::two_profiles());
  const json& profile = file["profiles"][0];
  expect_valid_evented(profile, file["shared"]["frames"].size());
  EXPECT_NE(profile["name"].get<std::string>().find("ecdh_p256_shared"), std::string::npos);
  EXPECT_NE(profile["name"].get<std::string>().find("(cycles"), std::string::npos);
  EXPECT_EQ(profile["events"].size(), fixture::traced_profile().events.size());
  EXPECT_EQ(profile["startValue"], 0);
  EXPECT_EQ(profile["endValue"], 87);
  // The recursion b → b is kept: two O events of b with no C between them.
  const json& events = profile["events"];
  EXPECT_EQ(events[7]["frame"], fixture::kB);
  EXPECT_EQ(events[8]["frame"], fixture::kB);
  EXPECT_EQ(events[8]["type"], "O");
}

TEST(SpeedscopeWriter, UntracedProfileIsSampledFromTheCallTree) {
  const json file = render(fixture::two_profiles());
  const json& profile = file["profiles"][1];
  ASSERT_EQ(profile["type"], "sampled");
  EXPECT_EQ(profile["unit"], "none");
  ASSERT_EQ(profile["samples"].size(), profile["weights"].size());
  uint64_t weight_sum = 0;
  for (const json& weight : profile["weights"]) weight_sum += weight.get<uint64_t>();
  EXPECT_EQ(weight_sum, 150u);
  EXPECT_EQ(profile["endValue"].get<uint64_t>() - profile["startValue"].get<uint64_t>(), 150u);
  for (const json& stack : profile["samples"]) {
    ASSERT_FALSE(stack.empty());
    EXPECT_EQ(stack[0], fixture::kMain) << "stacks run root to leaf";
    for (const json& frame : stack) EXPECT_LT(frame.get<size_t>(), 4u);
  }
  EXPECT_EQ(profile["samples"][1], json::array({fixture::kMain, fixture::kC}));
  EXPECT_EQ(profile["weights"][1], 50);
}

TEST(SpeedscopeWriter, TracedProfileWithoutTraceBecomesSampledWithUniqueStacks) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].events.clear();
  const json profile = render(set)["profiles"][0];
  ASSERT_EQ(profile["type"], "sampled");
  // Six nodes, six distinct paths (c under a, c under b;b); the weights add up to the total.
  EXPECT_EQ(profile["samples"].size(), 6u);
  uint64_t weight_sum = 0;
  for (const json& weight : profile["weights"]) weight_sum += weight.get<uint64_t>();
  EXPECT_EQ(weight_sum, 87u);
  EXPECT_TRUE(std::find(profile["samples"].begin(), profile["samples"].end(),
                        json::array({fixture::kMain, fixture::kB, fixture::kB, fixture::kC})) !=
              profile["samples"].end());
}

// What speedscope shows for each frame of a sampled profile: self = weight of the samples the
// frame ends, total = weight of the samples the frame is in (once per sample, however often).
std::map<uint64_t, std::pair<uint64_t, uint64_t>> sampled_self_and_total(const json& profile) {
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> out;
  for (size_t i = 0; i < profile["samples"].size(); ++i) {
    const json& stack = profile["samples"][i];
    const uint64_t weight = profile["weights"][i];
    out[stack.back().get<uint64_t>()].first += weight;
    std::set<uint64_t> seen;
    for (const json& frame : stack)
      if (seen.insert(frame.get<uint64_t>()).second) out[frame.get<uint64_t>()].second += weight;
  }
  return out;
}

TEST(SpeedscopeWriter, ATraceOverTheLimitGivesTheSampledCallTreeAndSaysWhy) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].events.clear();
  set.profiles[0].trace_truncated = true;
  set.profiles[0].trace_event_limit = 3;
  const json profile = render(set)["profiles"][0];
  EXPECT_EQ(profile["type"], "sampled");
  EXPECT_EQ(profile["name"], "ecdh_p256_shared (cycles, aggregated per call path, no time order: "
                             "the call trace would exceed 3 events)");
}

TEST(SpeedscopeWriter, ATraceOfOneOfSeveralExecutionsIsNotWritten) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].execution_cycles = {40, 47};
  const json profile = render(set)["profiles"][0];
  EXPECT_EQ(profile["type"], "sampled");
  EXPECT_NE(profile["name"].get<std::string>().find("the call trace covers 1 of 2 executions"),
            std::string::npos);
}

TEST(SpeedscopeWriter, InlinedFramesInTheTreeMakeTheProfileSampled) {
  ProfileSet set = fixture::one_profile();
  set.frames.push_back({"helper (inlined)", "a.c", 22, 0, true});
  // Five of a's 20 cycles were inlined helper's.
  Profile& p = set.profiles[0];
  p.nodes[1].exclusive_cycles -= 5;
  p.nodes[1].children.push_back(static_cast<uint32_t>(p.nodes.size()));
  p.nodes.push_back(fixture::node(4, 1, {}, 0, 5, 5, 2, 2));
  const json profile = render(set)["profiles"][0];
  EXPECT_EQ(profile["type"], "sampled");
  EXPECT_NE(profile["name"].get<std::string>().find("inlined functions are not in the call trace"),
            std::string::npos);
  EXPECT_EQ(sampled_self_and_total(profile)[4], (std::pair<uint64_t, uint64_t>{5, 5}));
}

TEST(SpeedscopeWriter, SampledWeightsAreEveryFramesExclusiveAndInclusiveCycles) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].events.clear();  // b recurses: its total counts once per sample
  const json profile = render(set)["profiles"][0];
  const auto shown = sampled_self_and_total(profile);
  const auto costs = function_costs(set.profiles[0]);
  ASSERT_EQ(shown.size(), costs.size());
  for (const FunctionCosts& c : costs) {
    ASSERT_TRUE(shown.count(c.frame)) << c.frame;
    EXPECT_EQ(shown.at(c.frame).first, c.exclusive_cycles) << c.frame;
    EXPECT_EQ(shown.at(c.frame).second, c.inclusive_cycles) << c.frame;
  }
  EXPECT_EQ(shown.at(fixture::kB).second, 27u);
}

TEST(SpeedscopeWriter, AnEventedTraceGivesEveryFrameItsExclusiveAndInclusiveCycles) {
  const json profile = render(fixture::one_profile())["profiles"][0];
  ASSERT_EQ(profile["type"], "evented");
  EXPECT_EQ(profile["name"], "ecdh_p256_shared (cycles, call trace)");
  // speedscope's reading: the time between two events is the top frame's self time and the
  // total time of every frame open then (once, however often it is open).
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> shown;
  std::vector<uint64_t> open;
  uint64_t last = 0;
  for (const json& e : profile["events"]) {
    const uint64_t at = e["at"];
    if (!open.empty()) {
      shown[open.back()].first += at - last;
      for (uint64_t f : std::set<uint64_t>(open.begin(), open.end())) shown[f].second += at - last;
    }
    last = at;
    if (e["type"] == "O") open.push_back(e["frame"]);
    else open.pop_back();
  }
  for (const FunctionCosts& c : function_costs(fixture::one_profile().profiles[0])) {
    EXPECT_EQ(shown[c.frame].first, c.exclusive_cycles) << c.frame;
    EXPECT_EQ(shown[c.frame].second, c.inclusive_cycles) << c.frame;
  }
}

TEST(SpeedscopeWriter, EmptySetIsAValidFile) {
  const json file = render(ProfileSet{});
  EXPECT_EQ(file["$schema"], kSpeedscopeSchemaUrl);
  EXPECT_TRUE(file["shared"]["frames"].is_array());
  EXPECT_TRUE(file["profiles"].empty());
}

TEST(SpeedscopeWriter, NamesWithSeparatorsAndSpacesSurviveAsJsonStrings) {
  const json file = render(fixture::awkward_names());
  EXPECT_EQ(file["shared"]["frames"][fixture::kA]["name"], "operator;x y\nz");
  EXPECT_NE(file["profiles"][0]["name"].get<std::string>().find("op;with space"),
            std::string::npos);
}

TEST(SpeedscopeWriter, MalformedTraceStillGivesANestedProfile) {
  ProfileSet set = fixture::one_profile();
  using K = TraceEvent::Kind;
  set.profiles[0].events = {
      {K::kEnter, fixture::kMain, 0, 0},
      {K::kLeave, fixture::kA, 6, 0},     // Leave of nothing
      {K::kEnter, 99, 7, 0},              // frame out of range
      {K::kEnter, fixture::kB, 3, 0},     // time going back
      {K::kLeave, fixture::kMain, 9, 0},  // closes b and frame 99 first
      {K::kEnter, fixture::kC, 10, 0},    // never left
  };
  set.profiles[0].total_cycles = 10;  // where the repaired trace ends: it is written as a trace
  set.frames.push_back({"bad\xff utf8", "", 0, 0});  // invalid UTF-8 must not throw
  const json file = render(set);
  expect_valid_evented(file["profiles"][0], file["shared"]["frames"].size());
  EXPECT_EQ(file["shared"]["frames"].size(), 6u) << "an extra \"???\" frame for index 99";
  EXPECT_EQ(file["shared"]["frames"].back()["name"], "???");
}

TEST(SpeedscopeWriter, OutputIsDeterministic) {
  std::ostringstream first, second;
  SpeedscopeWriter().write(fixture::two_profiles(), first);
  SpeedscopeWriter().write(fixture::two_profiles(), second);
  EXPECT_EQ(first.str(), second.str());
}

}  // namespace
}  // namespace fathom::profile
