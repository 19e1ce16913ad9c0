#include "pipeline/shard_selection.h"

#include <fmt/core.h>

#include <charconv>

#include "model/board.h"
#include "model/run_result_json.h"
#include "pipeline/suite_builder.h"
#include "util/sha256.h"

namespace fathom::pipeline {
namespace {

// A decimal number of 1 to 9 digits and nothing else.
std::optional<uint32_t> decimal(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  uint32_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string hooks_name(target::SimSettings::Hooks hooks) {
  switch (hooks) {
    case target::SimSettings::Hooks::kBlock: return "block";
    case target::SimSettings::Hooks::kPerInstruction: return "per-instruction";
    case target::SimSettings::Hooks::kBlockCountOnly: return "block-count-only";
  }
  return "block";
}

}  // namespace

util::Result<model::ShardPart> parse_shard_part(std::string_view text) {
  const auto slash = text.find('/');
  std::optional<uint32_t> index, count;
  if (slash != std::string_view::npos) {
    index = decimal(text.substr(0, slash));
    count = decimal(text.substr(slash + 1));
  }
  if (!index || !count || *count < 1 || *index < 1 || *index > *count)
    return util::fail_usage(fmt::format(
        "--shard '{}' is not a shard: use --shard i/N with 1 <= i <= N (e.g. --shard 2/3)",
        text));
  return model::ShardPart{*index, *count};
}

model::ShardSelection shard_selection(const model::Suite& suite, const RunOptions& options,
                                      std::string suite_argument, std::string suite_sha256) {
  RunOptions whole = options;
  whole.shard.reset();
  model::ShardSelection s;
  s.suite = suite.name;
  s.suite_argument = std::move(suite_argument);
  s.suite_sha256 = std::move(suite_sha256);
  for (const auto& entry : suite_matrix(suite, whole))
    s.images.push_back(model::SelectedImage{entry.configuration->name, entry.board});
  // The values run_suite uses.
  s.runs = options.runs.value_or(suite.runs);
  s.warmup = options.warmup.value_or(suite.warmup);
  s.operations = options.operations.empty() ? suite.operations : options.operations;
  s.cycle_budget = suite.cycle_budget;
  s.sim_hooks = hooks_name(options.target.sim.hooks);
  if (options.target.kind) s.target = std::string(model::to_string(*options.target.kind));
  if (options.cross_check) s.cross_check = std::string(model::to_string(*options.cross_check));
  return s;
}

std::string selection_sha256(const model::ShardSelection& selection) {
  return util::sha256_hex(model::dump_json(model::to_json(selection)));
}

model::ShardInfo make_shard_info(const model::ShardPart& part, model::ShardSelection selection) {
  model::ShardInfo info;
  info.index = part.index;
  info.count = part.count;
  info.selection_sha256 = selection_sha256(selection);
  info.selection = std::move(selection);
  return info;
}

}  // namespace fathom::pipeline
