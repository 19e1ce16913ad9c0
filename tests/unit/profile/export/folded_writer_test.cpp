#include "profile/export/folded_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string render(const ProfileSet& set) {
  std::ostringstream out;
  FoldedWriter().write(set, out);
  return out.str();
}

// Checks every line against the format and returns the counts per first frame.
std::map<std::string, uint64_t> checked_sums_by_first_frame(const std::string& text) {
  static const std::regex kLine(R"(^[^;\n]+(;[^;\n]+)* [0-9]+$)");
  std::map<std::string, uint64_t> sums;
  for (const std::string& line : lines_of(text)) {
    EXPECT_TRUE(std::regex_match(line, kLine)) << "'" << line << "'";
    const size_t last_blank = line.rfind(' ');
    const std::string stack = line.substr(0, last_blank);
    sums[stack.substr(0, stack.find(';'))] += std::stoull(line.substr(last_blank + 1));
  }
  return sums;
}

TEST(FoldedWriter, OneProfileLinesFollowTheFormatAndAddUpToTheTotal) {
  const std::string text = render(fixture::one_profile());
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const auto sums = checked_sums_by_first_frame(text);
  ASSERT_EQ(sums.size(), 1u) << "a single profile gets no operation prefix";
  EXPECT_EQ(sums.at("main"), 87u);
  const auto lines = lines_of(text);
  EXPECT_EQ(lines.size(), 6u) << "one line per node with self cycles";
  EXPECT_NE(std::find(lines.begin(), lines.end(), "main;b;b;c 15"), lines.end())
      << "recursion keeps its own stack";
  EXPECT_NE(std::find(lines.begin(), lines.end(), "main;a;c 30"), lines.end());
}

TEST(FoldedWriter, SeveralProfilesArePrefixedWithTheOperation) {
  const auto sums = checked_sums_by_first_frame(render(fixture::two_profiles()));
  ASSERT_EQ(sums.size(), 2u);
  EXPECT_EQ(sums.at("ecdh_p256_shared"), 87u);
  EXPECT_EQ(sums.at("sha256_1k"), 150u);
}

// An ELF profiled with --function benchmark --whole-run: the function's profile is named after
// its own root frame, which must not be repeated ("benchmark;benchmark;fib").
TEST(FoldedWriter, AProfileNamedAfterItsRootFrameGetsNoRepeatedPrefix) {
  ProfileSet set = fixture::two_profiles();
  set.profiles[0].name = "a";
  set.profiles[0].nodes = {fixture::node(fixture::kA, -1, {1}, 1, 50, 20, 32, 12),
                           fixture::node(fixture::kC, 0, {}, 2, 30, 30, 20, 20)};
  set.profiles[0].events.clear();
  set.profiles[1].name = "whole run";
  const auto lines = lines_of(render(set));
  EXPECT_NE(std::find(lines.begin(), lines.end(), "a;c 30"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "a 20"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "whole run;main;c 50"), lines.end());
  for (const auto& line : lines) EXPECT_EQ(line.rfind("a;a", 0), std::string::npos) << line;
}

TEST(FoldedWriter, TheOperationPrefixStaysWhenAnotherProfileHasTheSameRootName) {
  // Both profiles' roots are "main": without the prefix their stacks would merge.
  ProfileSet set = fixture::two_profiles();
  set.profiles[0].name = "main";
  const auto sums = checked_sums_by_first_frame(render(set));
  EXPECT_EQ(sums.at("main"), 87u);
  EXPECT_EQ(sums.at("sha256_1k"), 150u);
}

TEST(FoldedWriter, SeparatorsInNamesAreReplaced) {
  const std::string text = render(fixture::awkward_names());
  const auto sums = checked_sums_by_first_frame(text);
  EXPECT_EQ(sums.at("op_with space"), 87u);
  EXPECT_NE(text.find("op_with space;main;operator_x y z;c 30\n"), std::string::npos) << text;
}

TEST(FoldedWriter, EmptySetAndEmptyProfileGiveNoLines) {
  EXPECT_EQ(render(ProfileSet{}), "");
  ProfileSet set = fixture::base_set();
  set.profiles.push_back(Profile{});
  EXPECT_EQ(render(set), "");
}

TEST(FoldedWriter, DiffListsTheUnionOfStacksWithZeroWhereAbsent) {
  const ProfileSet before = fixture::one_profile();
  ProfileSet after = fixture::one_profile();
  // After: c under a got cheaper (30 -> 20), and a new callee d under main costs 10.
  Profile& profile = after.profiles[0];
  after.frames.push_back({"d", "d.c", 50, 0x08000500});
  profile.nodes[2].exclusive_cycles = 20;
  profile.nodes[0].children.push_back(6);
  profile.nodes.push_back(fixture::node(4, 0, {}, 1, 10, 10, 5, 5));

  std::ostringstream out;
  write_folded_diff(before, after, out);
  static const std::regex kLine(R"(^[^;\n]+(;[^;\n]+)* [0-9]+ [0-9]+$)");
  uint64_t before_sum = 0, after_sum = 0;
  const auto lines = lines_of(out.str());
  for (const std::string& line : lines) {
    EXPECT_TRUE(std::regex_match(line, kLine)) << "'" << line << "'";
    std::istringstream fields(line.substr(line.rfind(' ', line.rfind(' ') - 1) + 1));
    uint64_t b = 0, a = 0;
    fields >> b >> a;
    before_sum += b;
    after_sum += a;
  }
  EXPECT_EQ(lines.size(), 7u);
  EXPECT_EQ(before_sum, 87u);
  EXPECT_EQ(after_sum, 87u - 10u + 10u);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "main;a;c 30 20"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "main;d 0 10"), lines.end());
}

TEST(FoldedWriter, DiffPrefixesBothSidesWhenEitherHasSeveralProfiles) {
  std::ostringstream out;
  write_folded_diff(fixture::one_profile(), fixture::two_profiles(), out);
  const auto lines = lines_of(out.str());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "ecdh_p256_shared;main;a;c 30 30"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "sha256_1k;main;c 0 50"), lines.end());
}

}  // namespace
}  // namespace fathom::profile
