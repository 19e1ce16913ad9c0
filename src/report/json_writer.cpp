#include "report/json_writer.h"

#include <map>
#include <utility>

#include "model/run_result_json.h"
#include "report/sample_spread.h"
#include "report/stack_reserve.h"
#include "report/summary.h"

namespace fathom::report {
namespace {

using Json = model::ResultJson;

// `op` with "fastest" = `mark` inserted after its "statistics" (an object keeps its key order).
Json with_fastest(const Json& op, Json mark) {
  Json out;
  for (const auto& [key, value] : op.items()) {
    out[key] = value;
    if (key == "statistics") out["fastest"] = mark;
  }
  return out;
}

}  // namespace

void JsonWriter::write(const model::RunResult& run, std::ostream& out) const {
  Json doc = model::to_json(run);
  // "fastest": the lowest median of this operation on this board, beyond the noise threshold
  // (model::kNoiseThresholdPercent) of every other configuration; "tied": within it of the
  // lowest, as is another; null otherwise or with fewer than two timed configurations.
  std::map<const model::OperationResult*, FastestMark> marks;
  for (const auto& row : summarize_run(run, RowOrder::kImage).rows)
    if (row.operation) marks[row.operation] = row.fastest;
  for (size_t i = 0; i < run.images.size(); ++i) {
    Json& operations = doc["images"][i]["operations"];
    for (size_t j = 0; j < run.images[i].operations.size(); ++j) {
      const auto mark = marks.find(&run.images[i].operations[j]);
      operations[j] = with_fastest(operations[j],
                                   mark == marks.end() || mark->second == FastestMark::kNone
                                       ? Json(nullptr)
                                       : Json(fastest_mark_name(mark->second)));
    }
  }
  // Operations whose peak stack exceeds their board's stack reserve (report/stack_reserve.h).
  Json warnings = Json::array();
  for (const auto& o : stack_overruns(run))
    warnings.push_back(Json{{"kind", "stack-reserve-exceeded"},
                            {"configuration", o.image->configuration},
                            {"board", o.image->board},
                            {"operation", o.operation->operation},
                            {"peak_stack_bytes", o.peak_stack_bytes},
                            {"stack_reserve_bytes", o.stack_reserve_bytes},
                            {"message", stack_overrun_text(o)}});
  // Operations given fewer runs as fixed-input ones whose samples differed
  // (report/sample_spread.h).
  for (const auto& s : fixed_input_spreads(run))
    warnings.push_back(Json{{"kind", "samples-differ"},
                            {"configuration", s.image->configuration},
                            {"board", s.image->board},
                            {"operation", s.operation->operation},
                            {"message", sample_spread_text(s)}});
  doc["warnings"] = std::move(warnings);
  out << model::dump_json(doc, 2) << '\n';
}

}  // namespace fathom::report
