#pragma once
// A diagnosis (diagnosis.h: which functions explain each operation's change between two
// images) as JSON, for the HTML report's diagnosis tables. Field names follow the structs.
#include <vector>

#include <nlohmann/json.hpp>

#include "compare/diagnosis.h"

namespace fathom::compare {

// One object per operation: operation, cycles_a, cycles_b, changed, covered, functions,
// grew_inclusive, vanished (each a list of {function, exclusive_a, exclusive_b, inclusive_a,
// inclusive_b, calls_a, calls_b, share}) and controls ({operation, cycles_a, cycles_b,
// shared_functions}).
nlohmann::ordered_json diagnosis_json(const std::vector<OperationDiagnosis>& diagnosis);

}  // namespace fathom::compare
