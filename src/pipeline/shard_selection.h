#pragma once
// `fathom run --shard i/N` (docs/SCALE-OUT.md): the `i/N` argument, and the identity of the
// whole selection a shard is a part of (model/shard.h), which every shard of one run records
// and `fathom merge` checks (pipeline/shard_merge.h).
#include <string>
#include <string_view>

#include "model/shard.h"
#include "model/suite.h"
#include "pipeline/suite_runner.h"
#include "util/error.h"

namespace fathom::pipeline {

// Parses "i/N" (decimal, 1 <= i <= N); anything else is a usage error naming --shard and the
// valid form.
util::Result<model::ShardPart> parse_shard_part(std::string_view text);

// The selection `options` make of `suite` (its shard ignored): every image after the
// configuration and board filters, in suite order, and the options that change the figures
// (runs, warm-up, operations, cycle budget, hooks, target, cross-check). `suite_argument` is
// the suite as named on the command line, `suite_sha256` the digest of its file.
model::ShardSelection shard_selection(const model::Suite& suite, const RunOptions& options,
                                      std::string suite_argument, std::string suite_sha256);

// SHA-256 of the selection's compact JSON (model::to_json(ShardSelection)).
std::string selection_sha256(const model::ShardSelection& selection);

// The ShardInfo of `part` of `selection`.
model::ShardInfo make_shard_info(const model::ShardPart& part, model::ShardSelection selection);

}  // namespace fathom::pipeline
