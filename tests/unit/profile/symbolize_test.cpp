// profile::symbolize on a profile the call tracker took of a tiny assembly image, assembled here
// with the Arm toolchain: `outer` (a global function with .size) calls, with `bl`, a label
// inside itself that has no .type (`inner_lanes`, a local untyped symbol) and a local function
// (`local_helper`, .type %function, local binding, no .size). Both calls' frames are named by
// their own symbols, not "outer+N", and their instructions' costs belong to them.
#include "profile/symbolize.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "elf/elf_image.h"
#include "profile/call_tracker.h"
#include "profile/tracker_options.h"
#include "sim/machine.h"
#include "util/subprocess.h"
#include "../sim/assembled_image.h"
#include "../sim/fixture_board.h"

namespace fathom::profile {
namespace {

namespace fs = std::filesystem;

const std::string kSource = fathom::testing::reset_program("  bl outer\n", R"(
  .global outer
  .type outer, %function
outer:
  push {r4, lr}
  bl inner_lanes
  bl local_helper
  pop {r4, pc}
inner_lanes:               @ a label without .type: STT_NOTYPE, local
  movs r0, #1
  adds r0, r0, #2
  adds r0, r0, #3
  bx lr
  .type local_helper, %function
local_helper:              @ a local function symbol (no .global), no .size
  movs r0, #4
  bx lr
  .size outer, . - outer
)");

class SymbolizeLabels : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("fathom_symbolize_test_" + std::to_string(::getpid()));
    const auto built = fathom::testing::assemble_image(dir_, "labels", kSource);
    if (built.elf.empty() && built.error.empty()) GTEST_SKIP() << "arm-none-eabi-gcc is not available";
    ASSERT_TRUE(built.error.empty()) << built.error;
    elf_ = built.elf;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path dir_;
  fs::path elf_;
};

TEST_F(SymbolizeLabels, CallsToLabelsInsideAnAssemblyFunctionAreNamedByTheLabel) {
  auto image = elf::ElfImage::load(elf_);
  ASSERT_TRUE(image) << image.error().message;
  const elf::Symbol* outer = image->find_symbol("outer");
  const elf::Symbol* inner = image->find_symbol("inner_lanes");
  const elf::Symbol* helper = image->find_symbol("local_helper");
  ASSERT_TRUE(outer && inner && helper);
  EXPECT_FALSE(inner->is_global);
  EXPECT_TRUE(inner->untyped);
  EXPECT_FALSE(helper->is_global);
  EXPECT_TRUE(helper->is_function);
  const auto labels = image->local_code_labels();
  auto has_label = [&](const std::string& name) {
    return std::any_of(labels.begin(), labels.end(),
                       [&](const elf::Symbol& s) { return s.name == name; });
  };
  EXPECT_TRUE(has_label("inner_lanes"));
  EXPECT_TRUE(has_label("local_helper"));
  EXPECT_FALSE(has_label("outer")) << "global symbols are functions, not labels";

  auto machine = sim::Machine::create(fathom::testing::fixture_board());
  ASSERT_TRUE(machine) << machine.error().message;
  ASSERT_TRUE((*machine)->load(*image));
  CallTracker tracker(tracker_options_for(*image));
  (*machine)->set_observer(&tracker);
  const sim::RunOutcome outcome = (*machine)->run(100'000);
  ASSERT_TRUE(outcome.exited);
  ProfileSet set = tracker.finish();
  auto debug = elf::DebugInfo::open(elf_);
  ASSERT_TRUE(debug) << debug.error().message;
  ASSERT_NE(debug->label_at(inner->address), nullptr);
  EXPECT_EQ(*debug->label_at(inner->address), "inner_lanes");
  EXPECT_EQ(debug->label_at(outer->address), nullptr);
  symbolize(set, *debug);

  std::map<std::string, uint32_t> frame_of;
  for (uint32_t i = 0; i < set.frames.size(); ++i) frame_of[set.frames[i].name] = i;
  ASSERT_TRUE(frame_of.count("inner_lanes")) << "frames: " << set.frames.size();
  ASSERT_TRUE(frame_of.count("local_helper"));
  for (const Frame& f : set.frames)
    EXPECT_EQ(f.name.find("outer+"), std::string::npos) << f.name;
  // Every address's self cost sits with the frame the call tree charged it to: per frame, the
  // per-address costs add up to the call tree's exclusive cycles.
  const Profile& whole = set.profiles[0];
  std::map<uint32_t, uint64_t> by_address, by_node;
  for (const AddressCost& a : whole.addresses) by_address[a.frame] += a.cycles;
  for (const CallNode& n : whole.nodes) by_node[n.frame] += n.exclusive_cycles;
  EXPECT_EQ(by_address, by_node);
  EXPECT_GT(by_node[frame_of["inner_lanes"]], 0u);
  // inner_lanes runs 4 instructions.
  uint64_t inner_instructions = 0;
  for (const CallNode& n : whole.nodes)
    if (n.frame == frame_of["inner_lanes"]) inner_instructions += n.exclusive_instructions;
  EXPECT_EQ(inner_instructions, 4u);
}

}  // namespace
}  // namespace fathom::profile
