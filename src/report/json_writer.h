#pragma once
// The full results as JSON (schema_version = model::RunResult::kSchemaVersion), keys in a fixed
// order, no NaN or Infinity (null instead), no timestamps outside provenance.
#include "report/writer.h"

namespace fathom::report {

class JsonWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
