#include "compare/diagnosis_json.h"

namespace fathom::compare {
namespace {

using Json = nlohmann::ordered_json;

Json functions_json(const std::vector<FunctionDelta>& functions) {
  Json out = Json::array();
  for (const auto& f : functions)
    out.push_back({{"function", f.function},
                   {"exclusive_a", f.exclusive_a},
                   {"exclusive_b", f.exclusive_b},
                   {"inclusive_a", f.inclusive_a},
                   {"inclusive_b", f.inclusive_b},
                   {"calls_a", f.calls_a},
                   {"calls_b", f.calls_b},
                   {"share", f.share}});
  return out;
}

}  // namespace

Json diagnosis_json(const std::vector<OperationDiagnosis>& diagnosis) {
  Json out = Json::array();
  for (const auto& d : diagnosis) {
    Json controls = Json::array();
    for (const auto& c : d.controls)
      controls.push_back({{"operation", c.operation},
                          {"cycles_a", c.cycles_a},
                          {"cycles_b", c.cycles_b},
                          {"shared_functions", c.shared_functions}});
    out.push_back({{"operation", d.operation},
                   {"cycles_a", d.cycles_a},
                   {"cycles_b", d.cycles_b},
                   {"changed", d.changed},
                   {"covered", d.covered},
                   {"functions", functions_json(d.functions)},
                   {"grew_inclusive", functions_json(d.grew_inclusive)},
                   {"vanished", functions_json(d.vanished)},
                   {"controls", std::move(controls)}});
  }
  return out;
}

}  // namespace fathom::compare
