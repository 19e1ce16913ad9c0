#include "pipeline/shard_merge.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <map>

#include "model/run_result_json.h"
#include "pipeline/shard_selection.h"

namespace fathom::pipeline {
namespace {

std::string image_names(const std::vector<model::SelectedImage>& images) {
  std::vector<std::string> names;
  for (const auto& img : images) names.push_back(img.configuration + " on " + img.board);
  return names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

util::Result<MergedShards> merge_shards(const std::vector<ShardFile>& files) {
  if (files.empty()) return util::fail_usage("no shard result files given");
  for (const auto& file : files)
    if (!file.result.shard)
      return util::fail_usage(fmt::format(
          "{}: not a shard result (no \"shard\"; shards are written by `fathom run --shard i/N "
          "--format json`)",
          file.name));
  const ShardFile& first = files.front();
  const model::ShardInfo& reference = *first.result.shard;
  for (const auto& file : files) {
    const model::ShardInfo& shard = *file.result.shard;
    if (selection_sha256(shard.selection) != shard.selection_sha256)
      return util::fail_usage(fmt::format(
          "{}: its shard selection does not match its selection_sha256 (the file was edited)",
          file.name));
    if (shard.count != reference.count)
      return util::fail_usage(fmt::format(
          "{} is shard {}/{} but {} is shard {}/{}: the files disagree on the number of shards",
          first.name, reference.index, reference.count, file.name, shard.index, shard.count));
    if (shard.selection_sha256 != reference.selection_sha256)
      return util::fail_usage(fmt::format(
          "{} and {} are shards of different selections (suite, images or run options differ; "
          "selection_sha256 {} vs {})",
          first.name, file.name, reference.selection_sha256, shard.selection_sha256));
    if (file.result.suite != shard.selection.suite)
      return util::fail_usage(fmt::format("{}: suite '{}' is not its selection's suite '{}'",
                                          file.name, file.result.suite, shard.selection.suite));
  }

  const uint32_t count = reference.count;
  const model::ShardSelection& selection = reference.selection;
  MergedShards merged;
  std::map<uint32_t, const ShardFile*> by_index;
  for (const auto& file : files) {
    const uint32_t index = file.result.shard->index;
    auto [it, inserted] = by_index.emplace(index, &file);
    if (inserted) continue;
    const ShardFile& earlier = *it->second;
    if (model::dump_json(model::to_json(earlier.result)) !=
        model::dump_json(model::to_json(file.result)))
      return util::fail_usage(fmt::format(
          "{} and {} are both shard {}/{} with different contents: give one of them", earlier.name,
          file.name, index, count));
    merged.notes.push_back(fmt::format("{} is {} again (shard {}/{}): used once", file.name,
                                       earlier.name, index, count));
  }
  for (uint32_t index = 1; index <= count; ++index)
    if (!by_index.count(index))
      return util::fail_usage(
          fmt::format("shard {}/{} missing: give its result file", index, count));

  // Each shard holds exactly its part of the selection, in order.
  std::vector<std::vector<model::SelectedImage>> expected(count);
  for (size_t k = 0; k < selection.images.size(); ++k)
    expected[k % count].push_back(selection.images[k]);
  for (const auto& [index, file] : by_index) {
    std::vector<model::SelectedImage> held;
    for (const auto& img : file->result.images)
      held.push_back(model::SelectedImage{img.configuration, img.board});
    if (held != expected[index - 1])
      return util::fail_usage(fmt::format(
          "{}: shard {}/{} holds {}, but its part of the selection is {}", file->name, index,
          count, image_names(held), image_names(expected[index - 1])));
  }

  // One run is measured by one fathom: images of shards run by different builds of it (other
  // timing model, other harness) would make a result no single run gives.
  const model::ImageResult* first_image = nullptr;
  const ShardFile* first_image_file = nullptr;
  for (const auto& [index, file] : by_index)
    for (const auto& img : file->result.images) {
      if (!first_image) {
        first_image = &img;
        first_image_file = file;
        continue;
      }
      const auto& a = first_image->provenance;
      const auto& b = img.provenance;
      if (a.tool_version != b.tool_version || a.tool_git_revision != b.tool_git_revision)
        return util::fail_usage(fmt::format(
            "{} and {} were run by different fathom builds ({} {} vs {} {}): run every shard "
            "with the same one",
            first_image_file->name, file->name, a.tool_version, a.tool_git_revision,
            b.tool_version, b.tool_git_revision));
    }

  merged.run.suite = selection.suite;
  for (size_t k = 0; k < selection.images.size(); ++k)
    merged.run.images.push_back(by_index.at(static_cast<uint32_t>(k % count + 1))
                                    ->result.images[k / count]);
  merged.selection = selection;
  return merged;
}

}  // namespace fathom::pipeline
