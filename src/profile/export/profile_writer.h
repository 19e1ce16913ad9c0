#pragma once
// Profile exporters: one class per output format behind one small interface, as the report
// writers in src/report/writer.h. Every writer is deterministic (the same ProfileSet gives the
// same bytes) and never throws for any content of the set: an empty set, a profile without a
// trace, indices out of range and frame names with separators all still give a file that the
// format's viewer opens (docs: /shared/reference/formats.md).
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "profile/profile.h"
#include "util/error.h"

namespace fathom::profile {

class ProfileWriter {
 public:
  virtual ~ProfileWriter() = default;
  // Writes `profiles` to `out` in the writer's format.
  virtual void write(const ProfileSet& profiles, std::ostream& out) const = 0;
};

// Names accepted by make_profile_writer, in the order shown in help texts.
const std::vector<std::string>& profile_writer_formats();

// The writer for `format` ("speedscope", "perfetto", "folded", "callgrind", "json"); a usage error
// listing the valid names for anything else.
util::Result<std::unique_ptr<ProfileWriter>> make_profile_writer(std::string_view format);

}  // namespace fathom::profile
