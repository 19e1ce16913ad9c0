#include "suite/matrix.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>

#include "suite/toml_reader.h"

namespace fathom::suite {
namespace {

constexpr const char* kOptimizationLevels[] = {"-O0", "-O1", "-O2", "-O3",
                                               "-Os", "-Oz", "-Og", "-Ofast"};

template <typename List>
bool one_of(const List& list, std::string_view value) {
  return std::any_of(std::begin(list), std::end(list),
                     [&](const auto& v) { return value == std::string_view(v); });
}

std::string check_libc(std::string_view v) {
  if (one_of(model::kLibcNames, v)) return "";
  return fmt::format("unknown C library '{}' (use one of: {})", v,
                     fmt::join(model::kLibcNames, ", "));
}

std::string check_optimization(std::string_view v) {
  if (one_of(kOptimizationLevels, v)) return "";
  return fmt::format("'{}' is not an optimisation level (use one of: {})", v,
                     fmt::join(kOptimizationLevels, ", "));
}

// One `exclude` entry: each present key must match.
struct Exclusion {
  std::optional<std::string> configuration, libc, optimization, board;
  const toml::node* node = nullptr;  // for error positions
  size_t matches = 0;

  bool matches_cell(const model::Configuration& c, const std::string& libc_value,
                    const std::string& opt_value) const {
    return (!configuration || *configuration == c.name) && (!libc || *libc == libc_value) &&
           (!optimization || *optimization == opt_value);
  }
};

// The configuration's optimisation level: its last -O flag (GCC's rule), or -O2.
std::string optimization_of(const model::Configuration& c) {
  std::string level = "-O2";
  for (const auto& f : c.cflags)
    if (f.rfind("-O", 0) == 0) level = f;
  return level;
}

}  // namespace

util::Result<void> expand_matrix(model::Suite& suite, const toml::table& matrix,
                                 std::string_view source_name) {
  TableReader m(matrix, source_name, "[matrix]");
  auto libcs = m.string_array("libc", check_libc, true);
  if (!libcs) return tl::unexpected(libcs.error());
  auto levels = m.string_array("optimization", check_optimization, true);
  if (!levels) return tl::unexpected(levels.error());
  for (auto* axis : {&*libcs, &*levels})
    if (*axis && (*axis)->empty())
      return tl::unexpected(m.error_at_key(axis == &*libcs ? "libc" : "optimization",
                                           "a matrix axis needs at least one value"));

  std::vector<Exclusion> exclusions;
  auto excludes = m.table_array("exclude");
  if (!excludes) return tl::unexpected(excludes.error());
  if (*excludes) {
    size_t index = 0;
    for (const toml::node& node : **excludes) {
      ++index;
      TableReader e(*node.as_table(), source_name, fmt::format("[matrix] exclude #{}", index));
      Exclusion x;
      x.node = &node;
      for (auto [key, field] : {std::pair{"configuration", &x.configuration},
                                std::pair{"libc", &x.libc},
                                std::pair{"optimization", &x.optimization},
                                std::pair{"board", &x.board}}) {
        auto v = e.string(key);
        if (!v) return tl::unexpected(v.error());
        *field = *v;
      }
      if (auto ok = e.finish(); !ok) return tl::unexpected(ok.error());
      if (!x.configuration && !x.libc && !x.optimization && !x.board)
        return tl::unexpected(m.error_at(
            &node, "an exclusion needs at least one of configuration, libc, optimization, board"));
      if (x.configuration &&
          std::none_of(suite.configurations.begin(), suite.configurations.end(),
                       [&](const auto& c) { return c.name == *x.configuration; }))
        return tl::unexpected(m.error_at(
            &node, fmt::format("exclusion names configuration '{}', which the suite does not have",
                               *x.configuration)));
      if (x.libc && !check_libc(*x.libc).empty())
        return tl::unexpected(m.error_at(&node, check_libc(*x.libc)));
      if (x.optimization && !check_optimization(*x.optimization).empty())
        return tl::unexpected(m.error_at(&node, check_optimization(*x.optimization)));
      if (x.board && !one_of(suite.boards, *x.board))
        return tl::unexpected(m.error_at(
            &node, fmt::format("exclusion names board '{}', which is not in the suite's boards "
                               "({})",
                               *x.board, fmt::join(suite.boards, ", "))));
      exclusions.push_back(std::move(x));
    }
  }
  if (auto ok = m.finish(); !ok) return tl::unexpected(ok.error());

  std::vector<model::Configuration> expanded;
  for (const auto& base : suite.configurations) {
    const std::vector<std::string> libc_values = *libcs ? **libcs : std::vector{base.libc};
    const std::vector<std::string> opt_values =
        *levels ? **levels : std::vector{optimization_of(base)};
    for (const auto& libc : libc_values) {
      for (const auto& opt : opt_values) {
        // Whole-cell exclusions (no board), then per-board ones.
        bool excluded = false;
        for (auto& x : exclusions)
          if (!x.board && x.matches_cell(base, libc, opt)) {
            ++x.matches;
            excluded = true;
          }
        if (excluded) continue;
        std::vector<std::string> boards;
        for (const auto& board : suite.boards) {
          bool board_excluded = false;
          for (auto& x : exclusions)
            if (x.board && *x.board == board && x.matches_cell(base, libc, opt)) {
              ++x.matches;
              board_excluded = true;
            }
          if (!board_excluded) boards.push_back(board);
        }
        if (boards.empty()) continue;

        model::Configuration c = base;
        c.base_name = base.name;
        c.libc = libc;
        std::erase_if(c.cflags, [](const std::string& f) { return f.rfind("-O", 0) == 0; });
        c.cflags.insert(c.cflags.begin(), opt);
        if (boards.size() != suite.boards.size()) c.boards = boards;
        if (*libcs) {
          c.axes.emplace_back("libc", libc);
          c.name += "." + libc;
        }
        if (*levels) {
          c.axes.emplace_back("optimization", opt);
          c.name += "." + opt.substr(1);
        }
        expanded.push_back(std::move(c));
      }
    }
  }
  for (const auto& x : exclusions)
    if (x.matches == 0)
      return tl::unexpected(m.error_at(
          x.node, "this exclusion matches no cell of the matrix (check its values)"));
  if (expanded.empty())
    return tl::unexpected(m.error_at(nullptr, "the exclusions remove every configuration"));

  suite.configurations = std::move(expanded);
  if (*libcs) suite.matrix_axes.push_back("libc");
  if (*levels) suite.matrix_axes.push_back("optimization");
  if (suite.boards.size() > 1) suite.matrix_axes.push_back("board");
  return {};
}

}  // namespace fathom::suite
