// profile/profile_file.h: a ProfileSet written as text and read back is the same structure
// (every field of every record kind, strings with tabs, newlines and backslashes), and damaged
// text is an error naming its line, never a profile whose indices point nowhere.
#include "profile/profile_file.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace fathom::profile {
namespace {

ProfileSet sample() {
  ProfileSet set;
  set.source = "mbedtls on qemu-mps2-an505";
  set.object = "/tmp/a dir/image.elf";
  set.board = "qemu-mps2-an505";
  set.clock_hz = 20'000'000;
  set.timing_model = "cortex-m33/2";
  set.frames = {{"whole run", "", 0, 0, false, false},
                {"main", "harness\tfile.c", 12, 0x10000100, false, false},
                {"odd\\name\nx", "", 0, 0x10000200, false, true},
                {"inlined_fn", "inl.h", 7, 0, true, false}};
  Profile p;
  p.name = "ecdh_p256_shared";
  p.start_cycles = 26'794'904;
  p.total_cycles = 13'358'592;
  p.total_instructions = 11'284'627;
  p.trace_truncated = true;
  p.trace_event_limit = 200'000;
  p.peak_stack_bytes = 1234;
  p.nodes = {{1, -1, {1, 2}, 1, 100, 10, 90, 9},
             {2, 0, {3}, 4, 60, 20, 50, 15},
             {3, 0, {}, 2, 30, 30, 25, 25},
             {2, 1, {}, 1, 40, 40, 35, 35}};
  p.addresses = {{1, 0x10000100, "a.c", 3, 10, 9}, {2, 0x10000204, "", 0, 20, 15}};
  p.node_addresses = {{0, 0x10000100, 10, 9}, {3, 0x10000206, 40, 35}};
  p.edges = {{1, 2, 0x10000104, "a.c", 4, 4, 100, 85}};
  p.events = {{TraceEvent::Kind::kEnter, 1, 0, 8},
              {TraceEvent::Kind::kEnter, 2, 5, 40},
              {TraceEvent::Kind::kLeave, 2, 50, 40},
              {TraceEvent::Kind::kLeave, 1, 100, 8}};
  p.execution_cycles = {13'358'592, 7};
  Profile whole;
  whole.name = "whole run";
  whole.total_cycles = 5;
  whole.nodes = {{0, -1, {}, 1, 5, 5, 4, 4}};
  set.profiles = {whole, p};
  return set;
}

std::string text_of(const ProfileSet& set) {
  std::ostringstream out;
  write_profile_file(set, out);
  return out.str();
}

TEST(ProfileFile, ReadsBackEveryFieldOfEveryRecord) {
  const std::string text = text_of(sample());
  auto parsed = parse_profile_file(text);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(text_of(*parsed), text);  // nothing lost, nothing added
  const ProfileSet& s = *parsed;
  EXPECT_EQ(s.source, "mbedtls on qemu-mps2-an505");
  EXPECT_EQ(s.object, "/tmp/a dir/image.elf");
  EXPECT_EQ(s.clock_hz, 20'000'000u);
  EXPECT_EQ(s.timing_model, "cortex-m33/2");
  ASSERT_EQ(s.frames.size(), 4u);
  EXPECT_EQ(s.frames[1].file, "harness\tfile.c");
  EXPECT_EQ(s.frames[1].line, 12u);
  EXPECT_EQ(s.frames[1].address, 0x10000100u);
  EXPECT_EQ(s.frames[2].name, "odd\\name\nx");
  EXPECT_TRUE(s.frames[2].exception_handler);
  EXPECT_TRUE(s.frames[3].inlined);
  ASSERT_EQ(s.profiles.size(), 2u);
  const Profile& p = s.profiles[1];
  EXPECT_EQ(p.name, "ecdh_p256_shared");
  EXPECT_EQ(p.start_cycles, 26'794'904u);
  EXPECT_EQ(p.total_cycles, 13'358'592u);
  EXPECT_EQ(p.total_instructions, 11'284'627u);
  EXPECT_TRUE(p.trace_truncated);
  EXPECT_EQ(p.trace_event_limit, 200'000u);
  EXPECT_EQ(p.peak_stack_bytes, 1234u);
  ASSERT_EQ(p.nodes.size(), 4u);
  EXPECT_EQ(p.nodes[0].parent, -1);
  EXPECT_EQ(p.nodes[0].children, (std::vector<uint32_t>{1, 2}));
  EXPECT_EQ(p.nodes[1].children, (std::vector<uint32_t>{3}));
  EXPECT_EQ(p.nodes[3].parent, 1);
  EXPECT_EQ(p.nodes[1].calls, 4u);
  EXPECT_EQ(p.nodes[1].inclusive_cycles, 60u);
  EXPECT_EQ(p.nodes[1].exclusive_cycles, 20u);
  EXPECT_EQ(p.nodes[1].inclusive_instructions, 50u);
  EXPECT_EQ(p.nodes[1].exclusive_instructions, 15u);
  ASSERT_EQ(p.addresses.size(), 2u);
  EXPECT_EQ(p.addresses[0].file, "a.c");
  EXPECT_EQ(p.addresses[0].line, 3u);
  EXPECT_EQ(p.addresses[1].address, 0x10000204u);
  EXPECT_EQ(p.addresses[1].cycles, 20u);
  EXPECT_EQ(p.addresses[1].instructions, 15u);
  ASSERT_EQ(p.node_addresses.size(), 2u);
  EXPECT_EQ(p.node_addresses[1].node, 3u);
  EXPECT_EQ(p.node_addresses[1].cycles, 40u);
  ASSERT_EQ(p.edges.size(), 1u);
  EXPECT_EQ(p.edges[0].call_address, 0x10000104u);
  EXPECT_EQ(p.edges[0].call_line, 4u);
  EXPECT_EQ(p.edges[0].inclusive_instructions, 85u);
  ASSERT_EQ(p.events.size(), 4u);
  EXPECT_EQ(p.events[2].kind, TraceEvent::Kind::kLeave);
  EXPECT_EQ(p.events[1].at_cycles, 5u);
  EXPECT_EQ(p.events[1].stack_bytes, 40u);
  EXPECT_EQ(p.execution_cycles, (std::vector<uint64_t>{13'358'592, 7}));
}

// `text` with the first line that starts with `prefix` replaced by `line`.
std::string with_line(std::string text, const std::string& prefix, const std::string& line) {
  const size_t at = text.find("\n" + prefix) + 1;
  const size_t end = text.find('\n', at);
  return text.replace(at, end - at, line);
}

void expect_error(const std::string& text, const std::string& part) {
  auto parsed = parse_profile_file(text);
  ASSERT_FALSE(parsed) << "accepted:\n" << text;
  EXPECT_NE(parsed.error().message.find(part), std::string::npos) << parsed.error().message;
}

TEST(ProfileFile, DamagedTextIsAnErrorNamingTheLine) {
  const std::string good = text_of(sample());
  expect_error("", "empty");
  expect_error("fathom-profile 2\nend\n", "line 1: expected 'fathom-profile 1'");
  expect_error(good.substr(0, good.size() - 4), "no end line");  // cut short
  expect_error(good + "exec\t1\n", "text after the end line");
  expect_error(with_line(good, "set\t", "sat\t1\ta\tb\tc\td"), "line 2: unknown record");
  expect_error(with_line(good, "set\t", "set\t-1\ta\tb\tc\td"), "line 2: malformed set line");
  // A frame index out of range, in each record kind that has one.
  expect_error(with_line(good, "address\t", "address\t9\t1\t1\t1\t1\t"), "frame index");
  expect_error(with_line(good, "edge\t", "edge\t1\t4\t1\t1\t1\t1\t1\t"), "frame index");
  expect_error(with_line(good, "event\t", "event\tE\t4\t0\t0"), "frame index");
  expect_error(with_line(good, "event\t", "event\tX\t1\t0\t0"), "malformed event line");
  // The call tree must be a tree: a parent before its child, and parents and children agreeing.
  expect_error(with_line(good, "node\t1\t-1", "node\t1\t0\t1\t100\t10\t90\t9\t1,2"),
               "parent is not an earlier node");
  expect_error(with_line(good, "node\t1\t-1", "node\t1\t-1\t1\t100\t10\t90\t9\t1,3"),
               "not its child");
  expect_error(with_line(good, "node\t1\t-1", "node\t1\t-1\t1\t100\t10\t90\t9\t1"),
               "listed by its parent 0 times");
  expect_error(with_line(good, "nodeaddr\t", "nodeaddr\t7\t1\t1\t1"), "node index");
  expect_error(with_line(good, "node\t3", "node\t3\t0\t2\t30\t30\t25\t25\t9"), "child");
  // Numbers are plain decimal, in range.
  expect_error(with_line(good, "exec\t", "exec\t0x10"), "malformed exec line");
  expect_error(with_line(good, "exec\t", "exec\t18446744073709551616"), "malformed exec line");
  expect_error(with_line(good, "frame\t0", "frame\t0\t0\t2\t0\twhole run\t"), "malformed frame");
  // Records belong to a profile, frames come before the profiles.
  expect_error("fathom-profile 1\nset\t1\ta\tb\tc\td\nexec\t1\nend\n", "before the first profile");
  expect_error(good.substr(0, good.find("end\n")) + "frame\t0\t0\t0\t0\tx\t\nend\n",
               "a frame after the first profile");
  expect_error(with_line(good, "frame\t0", "frame\t0\t0\t0\t0\tbad\\qescape\t"),
               "malformed frame line");
}

}  // namespace
}  // namespace fathom::profile
