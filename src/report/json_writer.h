#pragma once
// The full results as JSON (schema_version = model::RunResult::kSchemaVersion), keys in a fixed
// order, no NaN or Infinity (null instead), no timestamps outside provenance.
#include <nlohmann/json.hpp>

#include "model/run_result.h"
#include "report/writer.h"

namespace fathom::report {

class JsonWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

// A run's provenance as the results file writes it (also what the history stores).
nlohmann::ordered_json provenance_json(const model::Provenance& provenance);

}  // namespace fathom::report
