#pragma once
// A profile's call tree as d3-flame-graph reads it (the HTML report, report/html_report.h):
// nested nodes {"name", "value", "children"} where `value` is the node's inclusive cycles —
// its own exclusive cycles plus its children's, so that the viewer's widths (selfValue(false))
// give every call path its exact share. Built from the call tree's exclusive stacks
// (profile/export/profile_views.h), so nodes with the same frame path are one node, as in the
// folded export; an unknown frame is "???".
//
// The differential tree of two profiles of one operation (A, the baseline; B, the change) has
// B's shape and cycles and, per node, "delta": B's exclusive cycles minus A's on the same call
// path (d3-flame-graph's computeDelta(true) sums them up the tree and its differential colour
// mapper colours by it). A path only A has is kept with value 0 and its negative delta, so the
// tree's deltas add up to B's total minus A's; the viewer cannot draw a zero-width node, so the
// report lists such paths beside it ("removed").
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "profile/profile.h"

namespace fathom::profile {

// The tree of `profile` (one of `set.profiles`, whose frames it names).
nlohmann::ordered_json flame_tree(const ProfileSet& set, const Profile& profile);

// B's tree with each node's exclusive-cycle change from A (see above).
nlohmann::ordered_json differential_flame_tree(const ProfileSet& a_set, const Profile& a,
                                               const ProfileSet& b_set, const Profile& b);

}  // namespace fathom::profile
