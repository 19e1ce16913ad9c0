#pragma once
// A metric over a series of stored runs (`fathom report --trend METRIC`): the runs of one suite
// in the order they were stored, and per configuration, board and operation the metric in each
// run that has it. The HTML report draws one line chart per operation from it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "history/run_store.h"

namespace fathom::history {

// `runs`: every stored run (RunStore::list_runs); only those of `suite` are kept. `rows`: the
// history query's rows (RunStore::history). `current`: the run the report is of, if stored.
//
// {"metric", "suite", "current_run" (id or null),
//  "runs": [{"id", "timestamp", "name", "git_revision", "git_dirty"}],
//  "series": [{"configuration", "board", "operation",
//              "points": [{"run", "value"}]}]}  // value null where it was not measured
// Series are in the order of their first row; a series' points follow the runs' order and
// include only runs that ran that operation.
nlohmann::ordered_json trend_json(const std::string& metric, const std::string& suite,
                                  const std::vector<RunSummary>& runs,
                                  const std::vector<HistoryRow>& rows,
                                  std::optional<int64_t> current);

}  // namespace fathom::history
