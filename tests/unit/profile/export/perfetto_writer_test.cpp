#include "profile/export/perfetto_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

using nlohmann::json;

json render(const ProfileSet& set) {
  std::ostringstream out;
  PerfettoWriter().write(set, out);
  return json::parse(out.str());  // throws (fails the test) on invalid JSON
}

// A duration event as whole nanoseconds (the writer's resolution).
struct Span {
  int64_t start_ns;
  int64_t end_ns;
  std::string name;
};

std::map<int, std::vector<Span>> spans_by_tid(const json& file) {
  std::map<int, std::vector<Span>> spans;
  for (const json& event : file["traceEvents"]) {
    if (event["ph"] != "X") continue;
    const int64_t start = std::llround(event["ts"].get<double>() * 1000.0);
    const int64_t duration = std::llround(event["dur"].get<double>() * 1000.0);
    EXPECT_GE(duration, 0);
    spans[event["tid"].get<int>()].push_back({start, start + duration, event["name"]});
  }
  return spans;
}

// Duration events on one thread must nest: no two of them may partially overlap.
void expect_nested(std::vector<Span> spans) {
  std::stable_sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
    return a.start_ns != b.start_ns ? a.start_ns < b.start_ns : a.end_ns > b.end_ns;
  });
  std::vector<Span> open;
  for (const Span& span : spans) {
    while (!open.empty() && open.back().end_ns <= span.start_ns) open.pop_back();
    if (!open.empty()) {
      EXPECT_LE(span.end_ns, open.back().end_ns)
          << span.name << " overlaps " << open.back().name << " partially";
    }
    open.push_back(span);
  }
}

TEST(PerfettoWriter, FileHasTraceEventsUnitAndProvenance) {
  const json file = render(fixture::two_profiles());
  ASSERT_TRUE(file["traceEvents"].is_array());
  EXPECT_EQ(file["displayTimeUnit"], "ns");
  EXPECT_EQ(file["otherData"]["board"], "sim-m33");
  EXPECT_EQ(file["otherData"]["clock_hz"], fixture::kClockHz);
  EXPECT_EQ(file["otherData"]["timing_model"], "cortex-m33");
  EXPECT_EQ(file["otherData"]["source"], "mbedtls on sim-m33");
}

TEST(PerfettoWriter, NamesTheProcessAndOneThreadPerProfile) {
  const json file = render(fixture::two_profiles());
  std::map<int, std::string> thread_names;
  std::string process_name;
  for (const json& event : file["traceEvents"]) {
    if (event["ph"] != "M") continue;
    if (event["name"] == "process_name") process_name = event["args"]["name"];
    if (event["name"] == "thread_name") thread_names[event["tid"]] = event["args"]["name"];
  }
  EXPECT_EQ(process_name, "mbedtls on sim-m33");
  ASSERT_EQ(thread_names.size(), 2u);
  EXPECT_EQ(thread_names.begin()->second, "ecdh_p256_shared");
  // The untraced profile is laid out from its call tree, and its name says so.
  EXPECT_EQ(thread_names.rbegin()->second,
            "sha256_1k (aggregated per call path, no time order: no call trace)");
  EXPECT_NE(thread_names.begin()->first, thread_names.rbegin()->first);
}

TEST(PerfettoWriter, CallsNestOnEachThreadAndProfilesDoNotOverlap) {
  const auto spans = spans_by_tid(render(fixture::two_profiles()));
  ASSERT_EQ(spans.size(), 2u);
  for (const auto& [tid, list] : spans) expect_nested(list);
  const auto& traced = spans.begin()->second;
  const auto& tree = spans.rbegin()->second;
  EXPECT_EQ(traced.size(), 7u) << "one X per Enter/Leave pair";
  EXPECT_EQ(tree.size(), 2u) << "one X per call-tree node";
  int64_t traced_end = 0, tree_start = INT64_MAX;
  for (const Span& s : traced) traced_end = std::max(traced_end, s.end_ns);
  for (const Span& s : tree) tree_start = std::min(tree_start, s.start_ns);
  EXPECT_LE(traced_end, tree_start);
}

TEST(PerfettoWriter, TimesAreMicrosecondsAtTheBoardClockWithRawCyclesInArgs) {
  const json file = render(fixture::two_profiles());
  // The first call of c: cycles 10..25 of a span starting at cycle 1000, at 64 MHz.
  const json* first_c = nullptr;
  for (const json& event : file["traceEvents"]) {
    if (event["ph"] != "X") continue;
    ASSERT_TRUE(event["args"]["cycles"].is_number_unsigned()) << event.dump();
    ASSERT_TRUE(event["args"]["start_cycles"].is_number_unsigned()) << event.dump();
    if (first_c == nullptr && event["name"] == "c") first_c = &event;
  }
  ASSERT_NE(first_c, nullptr);
  EXPECT_NEAR((*first_c)["ts"].get<double>(), 1010.0 / 64e6 * 1e6, 0.001);  // 15.78125 µs
  EXPECT_NEAR((*first_c)["dur"].get<double>(), 15.0 / 64e6 * 1e6, 0.001);   // 0.234375 µs
  EXPECT_EQ((*first_c)["args"]["cycles"], 15);
  EXPECT_EQ((*first_c)["args"]["start_cycles"], 1010);
  EXPECT_EQ((*first_c)["args"]["file"], "c.c");
}

TEST(PerfettoWriter, StackCounterAtEveryTraceEvent) {
  const json file = render(fixture::two_profiles());
  size_t counters = 0;
  uint64_t deepest = 0;
  for (const json& event : file["traceEvents"]) {
    if (event["ph"] != "C") continue;
    ++counters;
    EXPECT_EQ(event["name"], "stack");
    ASSERT_TRUE(event["ts"].is_number());
    ASSERT_FALSE(event["args"].empty());
    for (const auto& [series, value] : event["args"].items())
      EXPECT_TRUE(value.is_number()) << series;
    deepest = std::max(deepest, event["args"]["stack_bytes"].get<uint64_t>());
  }
  EXPECT_EQ(counters, fixture::traced_profile().events.size());
  EXPECT_EQ(deepest, 48u);
}

TEST(PerfettoWriter, CallTreeLayoutPutsChildrenInsideParents) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].events.clear();
  const json file = render(set);
  const auto spans = spans_by_tid(file);
  ASSERT_EQ(spans.size(), 1u);
  const auto& list = spans.begin()->second;
  EXPECT_EQ(list.size(), 6u);
  expect_nested(list);
  // The root spans the profile: 87 cycles from cycle 1000 at 64 MHz.
  for (const json& event : file["traceEvents"])
    if (event["ph"] == "X" && event["name"] == "main") {
      EXPECT_NEAR(event["ts"].get<double>(), 1000.0 / 64.0, 0.001);
      EXPECT_NEAR(event["dur"].get<double>(), 87.0 / 64.0, 0.001);
      EXPECT_EQ(event["args"]["cycles"], 87);
    }
}

TEST(PerfettoWriter, EmptySetIsAValidTrace) {
  const json file = render(ProfileSet{});
  ASSERT_TRUE(file["traceEvents"].is_array());
  for (const json& event : file["traceEvents"]) EXPECT_EQ(event["ph"], "M");
  EXPECT_EQ(file["displayTimeUnit"], "ns");
}

TEST(PerfettoWriter, NamesWithSeparatorsAndSpacesSurvive) {
  const json file = render(fixture::awkward_names());
  bool found = false;
  for (const json& event : file["traceEvents"])
    found |= event["ph"] == "X" && event["name"] == "operator;x y\nz";
  EXPECT_TRUE(found);
  for (const auto& [tid, list] : spans_by_tid(file)) expect_nested(list);
}

TEST(PerfettoWriter, WithoutAClockOneCycleIsOneMicrosecond) {
  ProfileSet set = fixture::one_profile();
  set.clock_hz = 0;
  const json file = render(set);
  for (const json& event : file["traceEvents"])
    if (event["ph"] == "X" && event["name"] == "main") {
      EXPECT_DOUBLE_EQ(event["ts"].get<double>(), 1000.0);
      EXPECT_DOUBLE_EQ(event["dur"].get<double>(), 87.0);
    }
  EXPECT_NE(file["otherData"]["time_basis"].get<std::string>().find("1 cycle = 1 us"),
            std::string::npos);
}

}  // namespace
}  // namespace fathom::profile
