#include "profile/export/profile_writer.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include "profile/export/callgrind_writer.h"
#include "profile/export/folded_writer.h"
#include "profile/export/json_writer.h"
#include "profile/export/perfetto_writer.h"
#include "profile/export/speedscope_writer.h"

namespace fathom::profile {

const std::vector<std::string>& profile_writer_formats() {
  static const std::vector<std::string> formats = {"speedscope", "perfetto", "folded", "callgrind",
                                                    "json"};
  return formats;
}

util::Result<std::unique_ptr<ProfileWriter>> make_profile_writer(std::string_view format) {
  if (format == "speedscope") return std::make_unique<SpeedscopeWriter>();
  if (format == "perfetto") return std::make_unique<PerfettoWriter>();
  if (format == "folded") return std::make_unique<FoldedWriter>();
  if (format == "callgrind") return std::make_unique<CallgrindWriter>();
  if (format == "json") return std::make_unique<JsonWriter>();
  return util::fail_usage(fmt::format("unknown profile format '{}'; use one of: {}", format,
                                      fmt::join(profile_writer_formats(), ", ")));
}

}  // namespace fathom::profile
