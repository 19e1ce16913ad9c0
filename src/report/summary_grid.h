#pragma once
// The columns that the table and markdown writers share, as text cells: configuration,
// [board], operation, cycle statistics (median, p99, min, max, n), instructions, time [µs],
// [ratio], memory, KAT, [primitive share], [note]. Bracketed columns appear only when needed:
// board with more than one board, ratio with at least two configurations, primitive share when
// some timed row has one (its largest groups, "bignum 93%, SHA-2 2%"), note when some row has
// a note.
#include <string>
#include <vector>

#include "report/summary.h"

namespace fathom::report {

struct Grid {
  std::vector<std::string> headers;
  std::vector<bool> right_aligned;             // per column
  std::vector<std::vector<std::string>> rows;  // each has headers.size() cells
  // Lines to print under the table, e.g. for an operation timed over distinct inputs (its n
  // cell ends in '*'): "* mldsa44_sign (pqclean-clean): 100 distinct inputs; median/p99/min/max
  // are over them".
  std::vector<std::string> footnotes;
};

// `summary` must come from summarize_run(..., RowOrder::kOperation) for grouped rows.
Grid summary_grid(const Summary& summary);

}  // namespace fathom::report
