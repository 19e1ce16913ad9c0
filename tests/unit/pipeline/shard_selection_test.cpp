// `fathom run --shard i/N`: the argument, the round-robin split of the matrix (suite_matrix
// with RunOptions::shard) and the selection every shard records (pipeline/shard_selection.h).
#include "pipeline/shard_selection.h"

#include <gtest/gtest.h>

#include <set>

#include "pipeline/suite_builder.h"

namespace fathom::pipeline {
namespace {

model::Suite four_by_two() {
  model::Suite suite;
  suite.name = "sharded";
  suite.boards = {"sim-m33", "sim-m4"};
  suite.runs = 5;
  suite.warmup = 1;
  suite.operations = {"sha256_64"};
  for (const char* name : {"a", "b", "c", "d"}) {
    model::Configuration c;
    c.name = name;
    c.library = "mbedtls";
    suite.configurations.push_back(c);
  }
  return suite;
}

std::vector<std::string> names(const std::vector<MatrixEntry>& matrix) {
  std::vector<std::string> out;
  for (const auto& e : matrix) out.push_back(e.configuration->name + "@" + e.board);
  return out;
}

TEST(ShardSelection, ParsesIOfN) {
  for (auto [text, index, count] : {std::tuple{"1/1", 1u, 1u}, {"2/3", 2u, 3u}, {"3/3", 3u, 3u},
                                    {"12/40", 12u, 40u}}) {
    auto part = parse_shard_part(text);
    ASSERT_TRUE(part.has_value()) << text << ": " << part.error().message;
    EXPECT_EQ(part->index, index) << text;
    EXPECT_EQ(part->count, count) << text;
  }
}

TEST(ShardSelection, AnythingElseIsAUsageErrorNamingTheValidForm) {
  for (const char* text : {"0/3", "4/3", "x", "3", "/3", "2/", "2/0", "0/0", "-1/3", "1/3x",
                           " 1/3", "1/+3", "1//3", "1/3/3", ""}) {
    auto part = parse_shard_part(text);
    ASSERT_FALSE(part.has_value()) << text;
    EXPECT_TRUE(part.error().is_usage) << text;
    EXPECT_NE(part.error().message.find("--shard"), std::string::npos) << part.error().message;
    EXPECT_NE(part.error().message.find("i/N with 1 <= i <= N"), std::string::npos)
        << part.error().message;
  }
}

TEST(ShardSelection, ImageKBelongsToShardKModNPlusOne) {
  const model::Suite suite = four_by_two();
  RunOptions options;
  const auto whole = names(suite_matrix(suite, options));
  ASSERT_EQ(whole.size(), 8u);
  options.shard = model::ShardPart{2, 3};
  EXPECT_EQ(names(suite_matrix(suite, options)),
            (std::vector<std::string>{whole[1], whole[4], whole[7]}));
  // Every image is in exactly one shard.
  std::multiset<std::string> seen;
  for (uint32_t i = 1; i <= 3; ++i) {
    options.shard = model::ShardPart{i, 3};
    for (const auto& n : names(suite_matrix(suite, options))) seen.insert(n);
  }
  EXPECT_EQ(seen, std::multiset<std::string>(whole.begin(), whole.end()));
  // After the filters: only configuration b and d, then split.
  options.configurations = {"b", "d"};
  options.shard = model::ShardPart{1, 2};
  EXPECT_EQ(names(suite_matrix(suite, options)),
            (std::vector<std::string>{"b@sim-m33", "d@sim-m33"}));
  // More shards than images: the last ones are empty.
  options.configurations.clear();
  options.shard = model::ShardPart{9, 9};
  EXPECT_TRUE(suite_matrix(suite, options).empty());
}

TEST(ShardSelection, RecordsTheWholeSelectionAndTheOptionsThatChangeFigures) {
  const model::Suite suite = four_by_two();
  RunOptions options;
  options.shard = model::ShardPart{2, 3};
  options.configurations = {"a", "c"};
  const auto selection = shard_selection(suite, options, "tests/x.toml", std::string(64, 'f'));
  EXPECT_EQ(selection.suite, "sharded");
  EXPECT_EQ(selection.suite_argument, "tests/x.toml");
  ASSERT_EQ(selection.images.size(), 4u);  // the whole selection, not shard 2's part
  EXPECT_EQ(selection.images[1], (model::SelectedImage{"a", "sim-m4"}));
  EXPECT_EQ(selection.images[2], (model::SelectedImage{"c", "sim-m33"}));
  EXPECT_EQ(selection.runs, 5u);
  EXPECT_EQ(selection.warmup, 1u);
  EXPECT_EQ(selection.operations, suite.operations);
  EXPECT_EQ(selection.cycle_budget, suite.cycle_budget);
  EXPECT_EQ(selection.sim_hooks, "block");
  EXPECT_EQ(selection.target, "");
  EXPECT_EQ(selection.cross_check, "");

  // The digest: the same for every shard of the selection, different when a figure-changing
  // option differs.
  const std::string digest = selection_sha256(selection);
  EXPECT_EQ(digest.size(), 64u);
  RunOptions other_part = options;
  other_part.shard = model::ShardPart{3, 3};
  EXPECT_EQ(selection_sha256(shard_selection(suite, other_part, "tests/x.toml",
                                             std::string(64, 'f'))),
            digest);
  std::vector<RunOptions> changed(6, options);
  changed[0].runs = 2;
  changed[1].warmup = 0;
  changed[2].operations = {"sha256_1k"};
  changed[3].target.sim.hooks = target::SimSettings::Hooks::kPerInstruction;
  changed[4].configurations = {"a", "b"};
  changed[5].target.kind = model::TargetKind::kQemu;
  for (size_t i = 0; i < changed.size(); ++i)
    EXPECT_NE(selection_sha256(shard_selection(suite, changed[i], "tests/x.toml",
                                               std::string(64, 'f'))),
              digest)
        << i;
  EXPECT_NE(selection_sha256(shard_selection(suite, options, "tests/x.toml",
                                             std::string(64, 'e'))),
            digest);
  model::Suite budget = suite;
  budget.cycle_budget = 1000;
  EXPECT_NE(selection_sha256(shard_selection(budget, options, "tests/x.toml",
                                             std::string(64, 'f'))),
            digest);

  const auto info = make_shard_info(model::ShardPart{2, 3}, selection);
  EXPECT_EQ(info.index, 2u);
  EXPECT_EQ(info.count, 3u);
  EXPECT_EQ(info.selection_sha256, digest);
  EXPECT_EQ(info.selection, selection);
}

}  // namespace
}  // namespace fathom::pipeline
