#pragma once
// A small hand-made ProfileSet for the exporter tests, on a 64 MHz board.
//
// Profile 0, "ecdh_p256_shared" (start at cycle 1000, 87 cycles, 55 instructions, with a matched
// call trace):
//   main (10 self) ─┬─ a (20 self) ── c (2 calls, 30 self)
//                   └─ b (5 self) ── b (7 self, recursion) ── c (15 self)
//   The trace's first call of c runs from cycle 10 to 25 (absolute 1010..1025).
// Profile 1, "sha256_1k" (start at cycle 5000, 150 cycles, no trace):
//   main (100 self) ── c (3 calls, 50 self)
#include <vector>

#include "profile/profile.h"

namespace fathom::profile::fixture {

inline constexpr uint64_t kClockHz = 64'000'000;
enum FrameIndex : uint32_t { kMain = 0, kA = 1, kB = 2, kC = 3 };

inline CallNode node(uint32_t frame, int32_t parent, std::vector<uint32_t> children, uint64_t calls,
                     uint64_t inclusive_cycles, uint64_t exclusive_cycles,
                     uint64_t inclusive_instructions, uint64_t exclusive_instructions) {
  return CallNode{frame,
                  parent,
                  std::move(children),
                  calls,
                  inclusive_cycles,
                  exclusive_cycles,
                  inclusive_instructions,
                  exclusive_instructions};
}

inline Profile traced_profile() {
  Profile p;
  p.name = "ecdh_p256_shared";
  p.start_cycles = 1000;
  p.total_cycles = 87;
  p.total_instructions = 55;
  p.nodes = {
      node(kMain, -1, {1, 3}, 1, 87, 10, 55, 6),  // 0
      node(kA, 0, {2}, 1, 50, 20, 32, 12),        // 1
      node(kC, 1, {}, 2, 30, 30, 20, 20),         // 2
      node(kB, 0, {4}, 1, 27, 5, 17, 3),          // 3
      node(kB, 3, {5}, 1, 22, 7, 14, 4),          // 4
      node(kC, 4, {}, 1, 15, 15, 10, 10),         // 5
  };
  p.addresses = {
      {kMain, 0x08000100, "main.c", 10, 4, 3}, {kMain, 0x08000104, "main.c", 11, 6, 3},
      {kA, 0x08000200, "a.c", 20, 20, 12},     {kC, 0x08000400, "c.c", 40, 45, 30},
      {kB, 0x08000300, "b.c", 30, 8, 4},       {kB, 0x08000304, "inline.h", 5, 4, 3},
  };
  p.edges = {
      {kMain, kA, 0x08000102, "main.c", 10, 1, 50, 32},
      {kMain, kB, 0x08000106, "main.c", 11, 1, 27, 17},
      {kA, kC, 0x08000202, "a.c", 21, 2, 30, 20},
      {kB, kB, 0x08000302, "b.c", 31, 1, 22, 14},
      {kB, kC, 0x08000306, "b.c", 32, 1, 15, 10},
  };
  using K = TraceEvent::Kind;
  p.events = {
      {K::kEnter, kMain, 0, 0}, {K::kEnter, kA, 4, 16},    {K::kEnter, kC, 10, 32},
      {K::kLeave, kC, 25, 16},  {K::kEnter, kC, 26, 32},   {K::kLeave, kC, 41, 16},
      {K::kLeave, kA, 54, 0},   {K::kEnter, kB, 54, 16},   {K::kEnter, kB, 56, 32},
      {K::kEnter, kC, 60, 48},  {K::kLeave, kC, 75, 32},   {K::kLeave, kB, 78, 16},
      {K::kLeave, kB, 81, 0},   {K::kLeave, kMain, 87, 0},
  };
  p.peak_stack_bytes = 48;
  return p;
}

inline Profile untraced_profile() {
  Profile p;
  p.name = "sha256_1k";
  p.start_cycles = 5000;
  p.total_cycles = 150;
  p.total_instructions = 120;
  p.nodes = {node(kMain, -1, {1}, 1, 150, 100, 120, 80), node(kC, 0, {}, 3, 50, 50, 40, 40)};
  p.addresses = {{kMain, 0x08000100, "main.c", 10, 100, 80}, {kC, 0x08000400, "c.c", 40, 50, 40}};
  p.edges = {{kMain, kC, 0x08000102, "main.c", 10, 3, 50, 40}};
  return p;
}

inline ProfileSet base_set() {
  ProfileSet set;
  set.source = "mbedtls on sim-m33";
  set.board = "sim-m33";
  set.clock_hz = kClockHz;
  set.timing_model = "cortex-m33";
  set.frames = {{"main", "main.c", 10, 0x08000100},
                {"a", "a.c", 20, 0x08000200},
                {"b", "b.c", 30, 0x08000300},
                {"c", "c.c", 40, 0x08000400}};
  return set;
}

// Both profiles (traced first).
inline ProfileSet two_profiles() {
  ProfileSet set = base_set();
  set.profiles = {traced_profile(), untraced_profile()};
  return set;
}

// Only the traced profile.
inline ProfileSet one_profile() {
  ProfileSet set = base_set();
  set.profiles = {traced_profile()};
  return set;
}

// Both profiles, function `a` named "operator;x y\nz" and the first operation "op;with space".
inline ProfileSet awkward_names() {
  ProfileSet set = two_profiles();
  set.frames[kA].name = "operator;x y\nz";
  set.profiles[0].name = "op;with space";
  return set;
}

}  // namespace fathom::profile::fixture
