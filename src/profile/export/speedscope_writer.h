#pragma once
// speedscope's JSON file format (https://www.speedscope.app/file-format-schema.json): the set's
// frames in `shared.frames` (name, file and line where known) and one profile per Profile, in
// the set's order, with `unit` "none" and costs in raw cycles (the profile name says
// "(cycles)"):
//   - a Profile whose call trace stands for all of it (profile_views.h trace_gap) becomes an
//     "evented" profile of O/C events (`at` = cycles since the span's start, startValue 0,
//     endValue = the span's cycles), named "<op> (cycles, call trace)";
//   - any other Profile becomes a "sampled" profile from its call tree: one sample per unique
//     root→leaf stack with non-zero exclusive cycles, weighted by those cycles, named
//     "<op> (cycles, aggregated per call path, no time order: <why>)". Every frame's self and
//     total weight in it are exactly its exclusive and inclusive cycles.
// A frame index out of range in the profile is shown as an extra frame "???".
#include "profile/export/profile_writer.h"

namespace fathom::profile {

inline constexpr const char* kSpeedscopeSchemaUrl =
    "https://www.speedscope.app/file-format-schema.json";

class SpeedscopeWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

}  // namespace fathom::profile
