#include "profile/export/speedscope_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

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

TEST(SpeedscopeWriter, TruncatedTraceSaysSoInTheName) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].trace_truncated = true;
  set.profiles[0].trace_depth_limit = 3;
  const std::string name = render(set)["profiles"][0]["name"];
  EXPECT_NE(name.find("calls deeper than 3 aggregated"), std::string::npos) << name;
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
      {K::kEnter, fixture::kMain, 5, 0},
      {K::kLeave, fixture::kA, 6, 0},     // Leave of nothing
      {K::kEnter, 99, 7, 0},              // frame out of range
      {K::kEnter, fixture::kB, 3, 0},     // time going back
      {K::kLeave, fixture::kMain, 9, 0},  // closes b and frame 99 first
      {K::kEnter, fixture::kC, 10, 0},    // never left
  };
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
