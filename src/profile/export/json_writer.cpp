#include "profile/export/json_writer.h"

#include <nlohmann/json.hpp>

#include "profile/export/profile_views.h"
#include "profile/function_summary.h"

namespace fathom::profile {

void JsonWriter::write(const ProfileSet& set, std::ostream& out) const {
  using Json = nlohmann::ordered_json;
  Json profiles = Json::array();
  for (const Profile& p : set.profiles) {
    Json functions = Json::array();
    for (const FunctionCosts& c : function_costs(p)) {
      Json f;
      f["name"] = frame_name(set, c.frame);
      if (c.frame < set.frames.size()) {
        const Frame& frame = set.frames[c.frame];
        if (!frame.file.empty()) f["file"] = frame.file;
        if (frame.line != 0) f["line"] = frame.line;
        f["address"] = frame.address;
        f["inlined"] = frame.inlined;
      }
      f["calls"] = c.calls;
      f["exclusive_cycles"] = c.exclusive_cycles;
      f["inclusive_cycles"] = c.inclusive_cycles;
      f["exclusive_instructions"] = c.exclusive_instructions;
      f["inclusive_instructions"] = c.inclusive_instructions;
      functions.push_back(std::move(f));
    }
    Json j;
    j["name"] = p.name;
    j["total_cycles"] = p.total_cycles;
    j["total_instructions"] = p.total_instructions;
    j["executions"] = p.execution_cycles.size();
    j["execution_cycles"] = p.execution_cycles;
    j["peak_stack_bytes"] = p.peak_stack_bytes;
    j["functions"] = std::move(functions);
    profiles.push_back(std::move(j));
  }
  Json file;
  file["source"] = set.source;
  file["board"] = set.board;
  file["clock_hz"] = set.clock_hz;
  file["timing_model"] = set.timing_model;
  file["profiles"] = std::move(profiles);
  out << file.dump(1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::profile
