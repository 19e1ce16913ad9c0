#pragma once
// `fathom run --format json`: the results model's JSON (model/run_result_json.h, which owns the
// keys, their order and the checked reader) plus what the report derives from it: each
// operation's "fastest" mark (after its "statistics") and the top-level "warnings".
#include "model/run_result.h"
#include "report/writer.h"

namespace fathom::report {

class JsonWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
