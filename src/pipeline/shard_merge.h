#pragma once
// `fathom merge` (docs/SCALE-OUT.md): the result files of a run's shards (`fathom run --shard
// i/N`, model/shard.h) combined into the images of the whole run, in suite order. The caller
// derives what spans images (derive_across_images, with the suite the selection names), so the
// merged result is the one a single unsharded run gives.
#include <string>
#include <vector>

#include "model/run_result.h"
#include "util/error.h"

namespace fathom::pipeline {

// One result file as read: its name (for messages) and its contents.
struct ShardFile {
  std::string name;
  model::RunResult result;
};

struct MergedShards {
  // The whole run's images in suite order, its suite name, no analyses and no shard.
  model::RunResult run;
  model::ShardSelection selection;  // the selection every shard named
  // Files given again with identical contents, used once: "b.json is a.json again (shard 2/3):
  // used once".
  std::vector<std::string> notes;
};

// Merges `files`. Usage errors, each naming the file(s): a file that is not a shard result;
// shards of different selections or counts; a selection that does not match its digest; the
// same shard twice with different contents; a shard whose images are not its part of the
// selection; a missing shard ("shard 2/3 missing: give its result file"); images run by
// different fathom builds (provenance tool_version, tool_git_revision). The same shard file
// twice with identical contents is used once (a note says so).
util::Result<MergedShards> merge_shards(const std::vector<ShardFile>& files);

}  // namespace fathom::pipeline
