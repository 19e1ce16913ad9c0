#pragma once
// Primitive share: per operation, the share of its cycles spent under named groups of
// functions ("SHA-2", "SHA-3/Keccak", "AES", "bignum", "RNG"), the "hashing %" figure of the
// post-quantum tables. The groups are data: [primitive_groups] in a library's library.toml
// (build::LibraryDescription::primitive_groups). docs/PROFILER.md, "Primitive share".
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "elf/elf_image.h"
#include "profile/call_tracker.h"
#include "profile/profile.h"
#include "sim/execution_observer.h"
#include "util/error.h"

namespace fathom::profile {

// Group name -> function-name patterns.
using PrimitiveGroups = std::map<std::string, std::vector<std::string>>;

// True if the function called `name` matches `pattern`: '*' matches any run of characters
// (also none), '?' one character, anything else itself. A GCC clone suffix of `name` (from its
// first '.': ".part.0", ".isra.0", ".constprop.1", ".cold") may be left out of the pattern, so
// "ecp_mod_koblitz" matches "ecp_mod_koblitz.constprop.0"; an empty `name` matches nothing.
bool function_matches(std::string_view pattern, std::string_view name);

// For each group of `groups`, the fraction in [0, 1] of `profile.total_cycles` that ran with at
// least one function of the group on the call path (its own code or anything it called).
// A cycle counts once per group however deeply the group's functions nest or recurse, and once
// for every group it is under. `frame_names[i]` names frame i of the profile's set (nodes whose
// frame has no name match no group). Every group gets an entry; all are 0 when the profile has
// no cycles.
std::map<std::string, double> primitive_share(const Profile& profile,
                                              const std::vector<std::string>& frame_names,
                                              const PrimitiveGroups& groups);

// For each group of `groups`, the cycles of `profile` that ran with at least one function of
// the group on the call path (what primitive_share divides by the profile's total).
std::map<std::string, uint64_t> primitive_cycles(const Profile& profile,
                                                 const std::vector<std::string>& frame_names,
                                                 const PrimitiveGroups& groups);

// For each group of `groups`, how many times a function of the group was entered from outside
// the group (the outermost calls: a group function calling another of the same group, or
// itself, counts once) over the whole profile, i.e. summed over its executions.
std::map<std::string, uint64_t> primitive_calls(const Profile& profile,
                                                const std::vector<std::string>& frame_names,
                                                const PrimitiveGroups& groups);

// An operation's figures per group: the share of its cycles, and the outermost calls per
// execution of its run function (the mean over all of them: warm-up, timed and stack runs).
struct PrimitiveFigures {
  std::map<std::string, double> share;
  std::map<std::string, double> calls_per_execution;
};

// Measures the primitive share of every operation of one image run: give `observer()` to the
// simulator (it is a CallTracker spanning each harness operation's run function, without the
// call trace), run the image, then call `finish()` once.
class PrimitiveShareRecorder {
 public:
  // Fails if `image` has no operation registry. `image` need not outlive the recorder.
  static util::Result<std::unique_ptr<PrimitiveShareRecorder>> create(const elf::ElfImage& image,
                                                                      PrimitiveGroups groups);

  sim::ExecutionObserver* observer() { return &tracker_; }

  // Operation name -> its share per group, summed over every execution of the operation's run
  // function (warm-up, timed and stack runs alike: they run the same code). Operations that
  // never ran are absent.
  std::map<std::string, PrimitiveFigures> finish();

 private:
  PrimitiveShareRecorder(TrackerOptions options, std::unordered_map<uint32_t, std::string> names,
                         PrimitiveGroups groups);

  CallTracker tracker_;
  std::unordered_map<uint32_t, std::string> function_names_;  // entry address -> symbol name
  PrimitiveGroups groups_;
};

}  // namespace fathom::profile
