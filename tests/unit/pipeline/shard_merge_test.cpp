// `fathom merge`: shard results combined into the whole run's images in suite order, with the
// conflicts and gaps that make it an error (pipeline/shard_merge.h); the analyses derived again
// from the merged images equal those of the whole run (derive_across_images).
#include "pipeline/shard_merge.h"

#include <gtest/gtest.h>

#include "../report/run_fixture.h"
#include "model/run_result_json.h"
#include "pipeline/shard_selection.h"
#include "pipeline/suite_runner.h"

namespace fathom::pipeline {
namespace {

using report::fixture::image;
using report::fixture::passed_op;

constexpr uint32_t kImages = 5;

model::Suite suite_of_five() {
  model::Suite suite;
  suite.name = "five";
  suite.boards = {"sim-m33"};
  suite.runs = 3;
  suite.operations = {"hkdf_sha256"};
  suite.fairness = model::FairnessSpec{{"hkdf_sha256"}, 0.5};
  for (uint32_t k = 0; k < kImages; ++k) {
    model::Configuration c;
    c.name = "c" + std::to_string(k);
    c.library = "mbedtls";
    suite.configurations.push_back(c);
  }
  return suite;
}

// The whole run as one process measures it: image k's figures depend on k.
model::RunResult whole_run(const model::Suite& suite) {
  model::RunResult run;
  run.suite = suite.name;
  for (uint32_t k = 0; k < kImages; ++k) {
    auto img = image("c" + std::to_string(k));
    img.operations.push_back(passed_op("hkdf_sha256", {10000 + k * 10, 10000 + k * 10}));
    run.images.push_back(img);
  }
  derive_across_images(run, suite);
  return run;
}

// Shard `index` of `count` as `fathom run --shard` writes it.
ShardFile shard_file(const model::Suite& suite, uint32_t index, uint32_t count,
                     RunOptions options = {}) {
  const model::RunResult whole = whole_run(suite);
  options.shard.reset();
  model::RunResult part;
  part.suite = whole.suite;
  for (size_t k = 0; k < whole.images.size(); ++k)
    if (model::image_in_shard(k, index, count)) part.images.push_back(whole.images[k]);
  derive_across_images(part, suite);
  part.shard = make_shard_info(model::ShardPart{index, count},
                               shard_selection(suite, options, "five", std::string(64, 'a')));
  return ShardFile{"shard" + std::to_string(index) + ".json", part};
}

std::string text(const model::RunResult& run) { return model::dump_json(model::to_json(run)); }

std::string merge_error(const std::vector<ShardFile>& files) {
  auto merged = merge_shards(files);
  EXPECT_FALSE(merged.has_value());
  if (merged) return "";
  EXPECT_TRUE(merged.error().is_usage) << merged.error().message;
  return merged.error().message;
}

TEST(ShardMerge, MergedAndDerivedAgainIsTheWholeRun) {
  const model::Suite suite = suite_of_five();
  // In any file order.
  auto merged = merge_shards({shard_file(suite, 3, 3), shard_file(suite, 1, 3),
                              shard_file(suite, 2, 3)});
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  EXPECT_TRUE(merged->notes.empty());
  EXPECT_FALSE(merged->run.shard.has_value());
  derive_across_images(merged->run, suite);
  const model::RunResult whole = whole_run(suite);
  ASSERT_EQ(whole.fairness.size(), 1u);  // one group of five: the check spans every shard
  EXPECT_EQ(whole.fairness[0].configurations.size(), kImages);
  EXPECT_EQ(text(merged->run), text(whole));
  EXPECT_EQ(merged->selection.images.size(), kImages);
}

TEST(ShardMerge, OneShardAndEmptyShardsMerge) {
  const model::Suite suite = suite_of_five();
  auto one = merge_shards({shard_file(suite, 1, 1)});
  ASSERT_TRUE(one.has_value()) << one.error().message;
  derive_across_images(one->run, suite);
  EXPECT_EQ(text(one->run), text(whole_run(suite)));
  // Seven shards of five images: shards 6 and 7 hold none.
  std::vector<ShardFile> files;
  for (uint32_t i = 1; i <= 7; ++i) files.push_back(shard_file(suite, i, 7));
  EXPECT_TRUE(files[5].result.images.empty());
  auto seven = merge_shards(files);
  ASSERT_TRUE(seven.has_value()) << seven.error().message;
  derive_across_images(seven->run, suite);
  EXPECT_EQ(text(seven->run), text(whole_run(suite)));
}

TEST(ShardMerge, TheSameFileTwiceIsUsedOnce) {
  const model::Suite suite = suite_of_five();
  ShardFile again = shard_file(suite, 2, 3);
  again.name = "copy.json";
  auto merged = merge_shards({shard_file(suite, 1, 3), shard_file(suite, 2, 3), again,
                              shard_file(suite, 3, 3)});
  ASSERT_TRUE(merged.has_value()) << merged.error().message;
  ASSERT_EQ(merged->notes.size(), 1u);
  EXPECT_EQ(merged->notes[0], "copy.json is shard2.json again (shard 2/3): used once");
  EXPECT_EQ(merged->run.images.size(), kImages);
}

TEST(ShardMerge, TheSameShardWithDifferentContentsIsAnError) {
  const model::Suite suite = suite_of_five();
  ShardFile other = shard_file(suite, 2, 3);
  other.name = "other.json";
  other.result.images[0].operations[0].cycle_samples[0] += 1;
  EXPECT_EQ(merge_error({shard_file(suite, 1, 3), shard_file(suite, 2, 3), other,
                         shard_file(suite, 3, 3)}),
            "shard2.json and other.json are both shard 2/3 with different contents: give one "
            "of them");
}

TEST(ShardMerge, AMissingShardIsAnError) {
  const model::Suite suite = suite_of_five();
  EXPECT_EQ(merge_error({shard_file(suite, 1, 3), shard_file(suite, 3, 3)}),
            "shard 2/3 missing: give its result file");
  EXPECT_EQ(merge_error({}), "no shard result files given");
}

TEST(ShardMerge, AFileThatIsNotAShardIsAnError) {
  const model::Suite suite = suite_of_five();
  ShardFile whole{"whole.json", whole_run(suite)};
  EXPECT_EQ(merge_error({shard_file(suite, 1, 2), whole}).rfind("whole.json: not a shard result",
                                                                0),
            0u);
}

TEST(ShardMerge, ShardsOfDifferentRunsAreAnError) {
  const model::Suite suite = suite_of_five();
  // A different count.
  ShardFile of_four = shard_file(suite, 2, 4);
  std::string error = merge_error({shard_file(suite, 1, 3), of_four});
  EXPECT_NE(error.find("shard1.json is shard 1/3 but shard2.json is shard 2/4"),
            std::string::npos)
      << error;
  // A different selection (another --runs).
  RunOptions fewer_runs;
  fewer_runs.runs = 2;
  error = merge_error({shard_file(suite, 1, 2), shard_file(suite, 2, 2, fewer_runs)});
  EXPECT_NE(error.find("shard1.json and shard2.json are shards of different selections"),
            std::string::npos)
      << error;
  // A selection edited without its digest.
  ShardFile edited = shard_file(suite, 2, 2);
  edited.result.shard->selection.runs = 7;
  error = merge_error({shard_file(suite, 1, 2), edited});
  EXPECT_EQ(error.rfind("shard2.json: its shard selection does not match", 0), 0u) << error;
}

TEST(ShardMerge, AShardMustHoldItsPartOfTheSelection) {
  const model::Suite suite = suite_of_five();
  ShardFile wrong = shard_file(suite, 2, 2);
  wrong.result.images.pop_back();  // c3 dropped: holds c1 only
  EXPECT_EQ(merge_error({shard_file(suite, 1, 2), wrong}),
            "shard2.json: shard 2/2 holds c1 on sim-m33, but its part of the selection is c1 on "
            "sim-m33, c3 on sim-m33");
}

TEST(ShardMerge, ShardsRunByDifferentFathomBuildsAreAnError) {
  const model::Suite suite = suite_of_five();
  ShardFile newer = shard_file(suite, 2, 2);
  for (auto& img : newer.result.images) img.provenance.tool_git_revision = "fedcba987654";
  EXPECT_EQ(merge_error({shard_file(suite, 1, 2), newer}).rfind(
                "shard1.json and shard2.json were run by different fathom builds", 0),
            0u);
}

}  // namespace
}  // namespace fathom::pipeline
