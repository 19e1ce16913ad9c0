#include "profile/export/callgrind_writer.h"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

std::vector<std::string> render_lines(const ProfileSet& set) {
  std::ostringstream out;
  CallgrindWriter().write(set, out);
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// One position (the address), then Cycles and Instructions.
const std::regex kCostLine(R"(^0x[0-9a-f]+ [0-9]+ [0-9]+$)");

size_t index_of_prefix(const std::vector<std::string>& lines, const std::string& prefix) {
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind(prefix, 0) == 0) return i;
  return lines.size();
}

struct Costs {
  uint64_t cycles = 0;
  uint64_t instructions = 0;
};

Costs parse_cost(const std::string& line) {
  std::istringstream fields(line);
  std::string address;
  Costs costs;
  fields >> address >> costs.cycles >> costs.instructions;
  return costs;
}

// Checks the body's rules and returns the sum of the self costs: every calls= line is followed
// by a cost line, every other cost line is self cost, and every compressed name "(id)" was
// defined as "(id) name" before (files and functions in separate tables).
Costs checked_self_costs(const std::vector<std::string>& lines) {
  static const std::regex kPositionSpec(R"(^(fl|fi|fe|cfl|cfi|fn|cfn)=\((\d+)\)( (.+))?$)");
  std::map<std::string, std::string> files, functions;
  Costs self;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::smatch match;
    if (std::regex_match(line, match, kPositionSpec)) {
      const bool is_function = match[1] == "fn" || match[1] == "cfn";
      auto& table = is_function ? functions : files;
      const std::string id = match[2];
      if (match[3].matched) {
        EXPECT_EQ(table.count(id), 0u) << "id redefined: " << line;
        table[id] = match[4];
      } else {
        EXPECT_EQ(table.count(id), 1u) << "id used before its definition: " << line;
      }
    } else if (line.rfind("calls=", 0) == 0) {
      EXPECT_TRUE(std::regex_match(line, std::regex(R"(^calls=[0-9]+ 0x[0-9a-f]+$)")))
          << line;
      EXPECT_LT(i + 1, lines.size()) << "calls= at the end of the file";
      if (i + 1 >= lines.size()) break;
      EXPECT_TRUE(std::regex_match(lines[i + 1], kCostLine)) << "after calls=: " << lines[i + 1];
      ++i;  // the inclusive cost of the call, not self cost
    } else if (std::regex_match(line, kCostLine)) {
      const Costs costs = parse_cost(line);
      self.cycles += costs.cycles;
      self.instructions += costs.instructions;
    }
  }
  return self;
}

Costs totals(const std::vector<std::string>& lines) {
  const size_t at = index_of_prefix(lines, "totals: ");
  EXPECT_LT(at, lines.size());
  if (at == lines.size()) return {};
  std::istringstream fields(lines[at].substr(8));
  Costs costs;
  fields >> costs.cycles >> costs.instructions;
  return costs;
}

TEST(CallgrindWriter, HeaderComesFirstInOrder) {
  const auto lines = render_lines(fixture::one_profile());
  ASSERT_GE(lines.size(), 8u);
  EXPECT_EQ(lines[0], "# callgrind format");
  EXPECT_EQ(lines[1], "version: 1");
  EXPECT_EQ(lines[2].rfind("creator: fathom", 0), 0u) << lines[2];
  const size_t positions = index_of_prefix(lines, "positions: ");
  const size_t events = index_of_prefix(lines, "events: ");
  const size_t totals_at = index_of_prefix(lines, "totals: ");
  const size_t body = index_of_prefix(lines, "fl=");
  ASSERT_LT(body, lines.size());
  EXPECT_EQ(lines[positions], "positions: instr");
  EXPECT_EQ(lines[events], "events: Cycles Instructions");
  EXPECT_LT(positions, body);
  EXPECT_LT(events, totals_at);
  EXPECT_LT(totals_at, body);
  EXPECT_LT(index_of_prefix(lines, "event: Cycles"), events) << "long names before use";
  // callgrind_annotate stops reading cmd:/desc: at `events:` (valgrind's own order).
  EXPECT_LT(index_of_prefix(lines, "cmd: mbedtls on sim-m33"), positions);
  EXPECT_LT(index_of_prefix(lines, "desc: Operation: ecdh_p256_shared"), positions);
}

TEST(CallgrindWriter, TotalsEqualTheSelfCostsAndTheProfile) {
  const auto lines = render_lines(fixture::one_profile());
  const Costs self = checked_self_costs(lines);
  const Costs total = totals(lines);
  EXPECT_EQ(total.cycles, self.cycles);
  EXPECT_EQ(total.instructions, self.instructions);
  EXPECT_EQ(total.cycles, 87u);
  EXPECT_EQ(total.instructions, 55u);
}

TEST(CallgrindWriter, CallsCarryCountTargetAndInclusiveCost) {
  const auto lines = render_lines(fixture::one_profile());
  // a calls c twice from 0x08000202 (a.c:21); c's entry is 0x08000400 (c.c:40).
  const size_t at = index_of_prefix(lines, "calls=2 ");
  ASSERT_LT(at + 1, lines.size());
  EXPECT_EQ(lines[at], "calls=2 0x8000400");
  EXPECT_EQ(lines[at + 1], "0x8000202 30 20");
  EXPECT_EQ(lines[at - 1].rfind("cfn=(", 0), 0u);
  EXPECT_EQ(lines[at - 2].rfind("cfl=(", 0), 0u);
  // Five call edges, the recursive b → b among them.
  size_t calls = 0;
  for (const auto& line : lines) calls += line.rfind("calls=", 0) == 0;
  EXPECT_EQ(calls, 5u);
}

TEST(CallgrindWriter, NamesTheObjectForTheMachineCodeView) {
  ProfileSet set = fixture::one_profile();
  set.object = "/images/image.elf";
  const auto lines = render_lines(set);
  const size_t ob = index_of_prefix(lines, "ob=");
  ASSERT_LT(ob, lines.size());
  EXPECT_EQ(lines[ob], "ob=/images/image.elf");
  EXPECT_LT(ob, index_of_prefix(lines, "fn=")) << "ob= before the first function";
  const auto plain = render_lines(fixture::one_profile());
  EXPECT_EQ(index_of_prefix(plain, "ob="), plain.size()) << "no ob= without a known object";
}

// speedscope's importer (import/callgrind.ts) ignores `positions:` and reads a cost line as one
// position followed by the events; callgrind_annotate skips the positions `positions:` names.
// Both must read the same cycles and instructions from every cost line.
TEST(CallgrindWriter, SpeedscopeAndCallgrindAnnotateReadTheSameColumns) {
  const auto lines = render_lines(fixture::one_profile());
  const size_t positions_at = index_of_prefix(lines, "positions: ");
  ASSERT_LT(positions_at, lines.size());
  std::istringstream names(lines[positions_at].substr(11));
  size_t position_columns = 0;
  for (std::string name; names >> name;) ++position_columns;
  EXPECT_EQ(position_columns, 1u) << "speedscope reads exactly one position column";
  size_t cost_lines = 0;
  for (const std::string& line : lines) {
    if (!std::regex_match(line, kCostLine)) continue;
    ++cost_lines;
    std::istringstream fields(line);
    std::vector<std::string> columns;
    for (std::string c; fields >> c;) columns.push_back(c);
    ASSERT_EQ(columns.size(), position_columns + 2) << line;
  }
  EXPECT_GT(cost_lines, 0u);
}

TEST(CallgrindWriter, WritesOnlyTheFirstProfileAndSaysSo) {
  const auto lines = render_lines(fixture::two_profiles());
  EXPECT_EQ(totals(lines).cycles, 87u);
  EXPECT_LT(index_of_prefix(lines, "desc: Profiles not written: 1"), lines.size());
}

TEST(CallgrindWriter, WithoutAddressCostsTheCallTreeGivesSelfCost) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].addresses.clear();
  const auto lines = render_lines(set);
  const Costs self = checked_self_costs(lines);
  EXPECT_EQ(totals(lines).cycles, self.cycles);
  EXPECT_EQ(self.cycles, 87u);
}

TEST(CallgrindWriter, EmptySetIsAValidFileWithZeroTotals) {
  const auto lines = render_lines(ProfileSet{});
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "# callgrind format");
  EXPECT_LT(index_of_prefix(lines, "events: Cycles Instructions"), lines.size());
  EXPECT_EQ(totals(lines).cycles, 0u);
  EXPECT_EQ(index_of_prefix(lines, "fn="), lines.size());
}

TEST(CallgrindWriter, NamesWithSeparatorsKeepOneLineEach) {
  const auto lines = render_lines(fixture::awkward_names());
  checked_self_costs(lines);
  bool found = false;
  for (const auto& line : lines) found |= line.find("operator;x y z") != std::string::npos;
  EXPECT_TRUE(found) << "';' and blanks are legal in callgrind names; the line break is not";
  EXPECT_LT(index_of_prefix(lines, "desc: Operation: op;with space"), lines.size());
}

TEST(CallgrindWriter, IndicesOutOfRangeAreShownAsUnknown) {
  ProfileSet set = fixture::one_profile();
  set.profiles[0].addresses.push_back({99, 0x08000900, "", 0, 1, 1});
  set.profiles[0].edges.push_back({fixture::kMain, 77, 0x08000108, "", 12, 1, 1, 1});
  const auto lines = render_lines(set);
  const Costs self = checked_self_costs(lines);
  EXPECT_EQ(totals(lines).cycles, self.cycles);
  EXPECT_EQ(self.cycles, 88u);
  bool unknown = false;
  for (const auto& line : lines) unknown |= line.find(") ???") != std::string::npos;
  EXPECT_TRUE(unknown);
}

}  // namespace
}  // namespace fathom::profile
