#include "util/name_suggestion.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>

namespace fathom::util {

size_t edit_distance(std::string_view a, std::string_view b) {
  // d[i][j]: distance between the first i characters of a and the first j of b.
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitution = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::vector<std::string> nearest_names(std::string_view name,
                                       const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(1, name.size() / 3);
  size_t best = limit + 1;
  std::vector<std::string> out;
  for (const auto& candidate : candidates) {
    const size_t distance = edit_distance(name, candidate);
    if (distance > limit || distance > best) continue;
    if (distance < best) out.clear();
    best = distance;
    out.push_back(candidate);
  }
  return out;
}

std::string unknown_name_message(std::string_view kind, std::string_view plural,
                                 std::string_view name,
                                 const std::vector<std::string>& candidates) {
  if (candidates.empty())
    return fmt::format("unknown {} '{}'; no {} are available", kind, name, plural);
  const std::vector<std::string> nearest = nearest_names(name, candidates);
  std::vector<std::string> ordered = nearest;
  for (const auto& candidate : candidates)
    if (std::find(nearest.begin(), nearest.end(), candidate) == nearest.end())
      ordered.push_back(candidate);
  std::string suggestion;
  for (size_t i = 0; i < nearest.size(); ++i)
    suggestion += fmt::format("{}'{}'",
                              i == 0                    ? ""
                              : i + 1 == nearest.size() ? " or "
                                                        : ", ",
                              nearest[i]);
  return fmt::format("unknown {} '{}'; {}available {}: {}", kind, name,
                     suggestion.empty() ? "" : "did you mean " + suggestion + "? ", plural,
                     fmt::join(ordered, ", "));
}

}  // namespace fathom::util
