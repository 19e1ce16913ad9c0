// sim/unicorn_store_shortcut.cpp: Unicorn's calls reach fathom's page_collection_lock_arm and
// page_collection_unlock_arm, and the invalidation of translated code that the store path
// exists for still happens: code the firmware rewrites in SRAM runs as rewritten, in both hook
// modes.
#include <gtest/gtest.h>
#include <dlfcn.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>

#include "sim/machine.h"
#include "sim/unicorn_store_shortcut.h"
#include "assembled_image.h"
#include "fixture_board.h"
#include "run_on_board.h"

extern "C" void* page_collection_lock_arm(void*, uintptr_t, uintptr_t);
extern "C" void page_collection_unlock_arm(void*);

namespace fathom::sim {
namespace {

namespace fs = std::filesystem;

TEST(UnicornStoreShortcut, UnicornsCallsResolveToFathomsFunctions) {
  // Unicorn calls both through its PLT, which binds to the first definition in the global
  // scope: the executable's, exported by the link options of fathom_sim.
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "page_collection_lock_arm"),
            reinterpret_cast<void*>(&page_collection_lock_arm));
  EXPECT_EQ(dlsym(RTLD_DEFAULT, "page_collection_unlock_arm"),
            reinterpret_cast<void*>(&page_collection_unlock_arm));
  // ... and Unicorn's own are still there to forward to.
  EXPECT_NE(dlsym(RTLD_NEXT, "page_collection_lock_arm"), nullptr);
  EXPECT_NE(dlsym(RTLD_NEXT, "page_collection_unlock_arm"), nullptr);
  EXPECT_EQ(unicorn_build_id().size(), 40u) << unicorn_build_id();
  std::printf("libunicorn build %s: shortcut %s\n", unicorn_build_id().c_str(),
              unicorn_store_shortcut_active() ? "active" : "off");
}

// The firmware writes `movs r0, #round; bx lr` into SRAM and calls it twice per round (the
// second call runs the translated block), eight rounds: the exit code is 2 * (0 + ... + 7).
// Stale translated code would return an earlier round's value.
constexpr const char* kSelfModifying = R"(
  ldr r5, =0x20001000    @ the function, in SRAM (the stack is at the top of SRAM)
  ldr r6, =0x20001001    @ its Thumb address
  movs r4, #0
  movs r7, #0
1:
  ldr r1, =0x47702000    @ movs r0, #0 ; bx lr
  orrs r1, r1, r7        @ movs r0, #round
  str r1, [r5]
  dsb
  isb
  blx r6
  add r4, r4, r0
  blx r6
  add r4, r4, r0
  adds r7, r7, #1
  cmp r7, #8
  bne 1b
  ldr r1, =0x40000004    @ EXIT with the sum
  str r4, [r1]
)";

TEST(UnicornStoreShortcut, RewrittenCodeRunsAsRewritten) {
  const fs::path dir = fs::temp_directory_path() / ("fathom_store_shortcut_" + std::to_string(::getpid()));
  auto image = fathom::testing::load_assembled(dir, "smc", fathom::testing::reset_program(kSelfModifying));
  fs::remove_all(dir);
  if (!image) GTEST_SKIP() << "no toolchain";
  uint64_t instructions[2] = {}, cycles[2] = {};
  const HookMode modes[2] = {HookMode::kBlock, HookMode::kPerInstruction};
  for (int i = 0; i < 2; ++i) {
    const RunOutcome out =
        fathom::testing::run_on_board(*image, fathom::testing::fixture_board(), modes[i], 1'000'000);
    ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
    EXPECT_TRUE(out.exited);
    EXPECT_EQ(out.exit_code, 56);
    instructions[i] = out.instructions;
    cycles[i] = out.cycles;
  }
  EXPECT_EQ(instructions[0], instructions[1]);
  EXPECT_EQ(cycles[0], cycles[1]);
}

}  // namespace
}  // namespace fathom::sim
