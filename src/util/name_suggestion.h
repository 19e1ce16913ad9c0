#pragma once
// Suggestions for a mistyped name (a subcommand, a board, a library): the valid names nearest to
// it by edit distance, for messages such as
// "unknown board 'sim-m34'; did you mean 'sim-m33'? available boards: sim-m33, sim-m3, ...".
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fathom::util {

// Optimal string alignment distance: the fewest insertions, deletions, substitutions and swaps
// of two adjacent characters (each costs 1) that turn `a` into `b` ("rnu" -> "run" is 1).
size_t edit_distance(std::string_view a, std::string_view b);

// The `candidates` at the smallest edit distance from `name`, in the candidates' order, when
// that distance is an obvious typo: at most max(1, size of `name` / 3). Empty otherwise (and
// for an empty `candidates`).
std::vector<std::string> nearest_names(std::string_view name,
                                       const std::vector<std::string>& candidates);

// "unknown KIND 'NAME'; did you mean 'A'? available PLURAL: A, B, C" with the nearest names
// (nearest_names) first and then the others in their order; without the "did you mean" part
// when nothing is near, and "... no PLURAL are available" when `candidates` is empty.
std::string unknown_name_message(std::string_view kind, std::string_view plural,
                                 std::string_view name, const std::vector<std::string>& candidates);

}  // namespace fathom::util
