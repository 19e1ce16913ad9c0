#pragma once
// A shard of a run (`fathom run --shard i/N`, docs/SCALE-OUT.md): a deterministic 1/N of the
// suite's images, and the identity of the whole selection it is a part of, so that
// `fathom merge` can check that its shards belong together (pipeline/shard_merge.h).
#include <cstdint>
#include <string>
#include <vector>

namespace fathom::model {

// Which part of a run to make: shard `index` (1-based) of `count`.
struct ShardPart {
  uint32_t index = 1;
  uint32_t count = 1;
};

// One image of a selection: a configuration on a board.
struct SelectedImage {
  std::string configuration;
  std::string board;
  bool operator==(const SelectedImage&) const = default;
};

// What a run was asked to measure, as far as it changes the figures: the same selection gives
// the same images with the same figures whichever process runs them.
struct ShardSelection {
  std::string suite;           // the suite's name (RunResult::suite)
  std::string suite_argument;  // the suite as named on the command line ("default", a path)
  std::string suite_sha256;    // of the suite file it was read from
  std::vector<SelectedImage> images;  // the whole selection, in suite order
  uint32_t runs = 0;
  uint32_t warmup = 0;
  std::vector<std::string> operations;  // the operation list the run was given (suite's or --op)
  uint64_t cycle_budget = 0;
  std::string sim_hooks;    // "block", "per-instruction"
  std::string target;       // --target ("sim", "qemu", "serial"); empty = each board's own
  std::string cross_check;  // --cross-check; empty = none
  bool operator==(const ShardSelection&) const = default;
};

struct ShardInfo {
  uint32_t index = 0;  // 1-based
  uint32_t count = 0;  // N
  ShardSelection selection;
  // SHA-256 of the selection's JSON (pipeline/shard_selection.h): equal for every shard of one
  // selection.
  std::string selection_sha256;
};

// Image `k` (0-based, in selection order) belongs to shard (k mod count) + 1: round robin, so
// that a matrix whose heavy configurations are adjacent is spread over the shards.
constexpr bool image_in_shard(size_t k, uint32_t index, uint32_t count) {
  return count > 0 && k % count + 1 == index;
}

}  // namespace fathom::model
