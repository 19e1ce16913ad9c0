// profile::expand_inlined on the rdimon fixture (tests/fixtures/firmware/rdimon_fixture.c),
// whose benchmark() has rotate_mix inlined into it (always_inline; DWARF records a
// DW_TAG_inlined_subroutine): the inlined function becomes a frame under benchmark holding
// the cost of its instructions, and no total moves.
#include "profile/inline_expansion.h"

#include <gtest/gtest.h>

#include "elf/elf_image.h"
#include "profile/call_tracker.h"
#include "profile/symbolize.h"
#include "sim/machine.h"
#include "suite/board_loader.h"
#include "util/source_dir.h"
#include "../test_paths.h"

namespace fathom::profile {
namespace {

ProfileSet profile_benchmark(const std::string& elf) {
  auto board = suite::load_board(std::string(fathom::util::source_dir()) + "/firmware/boards", "sim-m4");
  EXPECT_TRUE(board) << board.error().message;
  auto image = elf::ElfImage::load(elf);
  EXPECT_TRUE(image) << image.error().message;
  TrackerOptions options;
  for (const auto& s : image->symbols())
    if (s.is_function) options.function_entries.push_back(s.address);
  options.spans.push_back({"benchmark", image->find_symbol("benchmark")->address});
  auto machine = sim::Machine::create(*board);
  EXPECT_TRUE(machine);
  EXPECT_TRUE((*machine)->load(*image));
  CallTracker tracker(options);
  (*machine)->set_observer(&tracker);
  const sim::RunOutcome out = (*machine)->run(100'000'000);
  EXPECT_TRUE(out.exited);
  return tracker.finish();
}

void expect_consistent(const Profile& p) {
  for (const auto& n : p.nodes) {
    uint64_t children = 0, children_instructions = 0;
    for (uint32_t c : n.children) {
      children += p.nodes[c].inclusive_cycles;
      children_instructions += p.nodes[c].inclusive_instructions;
    }
    EXPECT_EQ(n.inclusive_cycles, n.exclusive_cycles + children);
    EXPECT_EQ(n.inclusive_instructions, n.exclusive_instructions + children_instructions);
  }
}

TEST(InlineExpansion, InlinedFunctionBecomesAFrameUnderItsHostAndTotalsStay) {
  const std::string elf = FATHOM_TEST_RDIMON_FIRMWARE;
  if (elf.empty()) GTEST_SKIP() << "no Arm toolchain at configure time: no rdimon fixture";
  ProfileSet set = profile_benchmark(elf);
  auto debug = elf::DebugInfo::open(elf);
  ASSERT_TRUE(debug) << debug.error().message;
  symbolize(set, *debug);
  const ProfileSet before = set;

  EXPECT_GT(expand_inlined(set, *debug), 0u);
  ASSERT_EQ(set.profiles.size(), before.profiles.size());
  for (size_t i = 0; i < set.profiles.size(); ++i) {
    const Profile& p = set.profiles[i];
    const Profile& b = before.profiles[i];
    EXPECT_EQ(p.total_cycles, b.total_cycles);
    EXPECT_EQ(p.nodes[0].inclusive_cycles, b.nodes[0].inclusive_cycles);
    uint64_t exclusive = 0, exclusive_before = 0;
    for (const auto& n : p.nodes) exclusive += n.exclusive_cycles;
    for (const auto& n : b.nodes) exclusive_before += n.exclusive_cycles;
    EXPECT_EQ(exclusive, exclusive_before);
    // Every original node keeps its inclusive cost.
    for (size_t n = 0; n < b.nodes.size(); ++n)
      EXPECT_EQ(p.nodes[n].inclusive_cycles, b.nodes[n].inclusive_cycles);
    expect_consistent(p);
  }

  // In benchmark's profile: rotate_mix (inlined) under benchmark, never called, with cycles.
  const Profile& bench = set.profiles[1];
  ASSERT_EQ(bench.name, "benchmark");
  bool found = false;
  for (const auto& n : bench.nodes) {
    const Frame& f = set.frames[n.frame];
    if (f.name != "rotate_mix (inlined)") continue;
    found = true;
    EXPECT_TRUE(f.inlined);
    EXPECT_EQ(n.calls, 0u);
    EXPECT_GT(n.exclusive_cycles, 0u);
    ASSERT_GE(n.parent, 0);
    EXPECT_EQ(set.frames[bench.nodes[static_cast<size_t>(n.parent)].frame].name, "benchmark");
    EXPECT_NE(f.file.find("rdimon_fixture.c"), std::string::npos) << f.file;
  }
  EXPECT_TRUE(found);
  // Real functions are not marked inlined.
  for (const auto& f : set.frames) {
    if (f.name == "benchmark" || f.name == "fib") {
      EXPECT_FALSE(f.inlined);
    }
  }
}

}  // namespace
}  // namespace fathom::profile
