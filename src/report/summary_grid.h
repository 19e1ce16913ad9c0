#pragma once
// The columns that the table and markdown writers share, as text cells.
// Wide (the markdown writer, `fathom run --wide`): configuration, [board], operation, cycle
// statistics (median, [fastest], p99, min, max, n), instructions, time [µs], [ratio], memory
// (peak stack, heap peak, allocations), KAT, [primitive share], [note].
// Compact (the terminal's default), with short headers that a footnote explains: operation,
// config, [board], cycles (the median), [fastest mark], [instructions, on a target without
// cycles], µs, [ratio], stack B, heap B, KAT (pass / FAIL / not run), [note].
// Bracketed columns appear only when needed: board with more than one board, fastest when a
// configuration is fastest beyond noise, ratio with at least two configurations, primitive
// share when some timed row has one (its largest groups, "bignum 93%, SHA-2 2%"), note when
// some row has a note.
#include <string>
#include <vector>

#include "report/summary.h"
#include "report/text_table.h"

namespace fathom::report {

enum class GridStyle { kCompact, kWide };

struct Grid {
  std::vector<std::string> headers;
  std::vector<bool> right_aligned;             // per column
  std::vector<ColumnFit> fit;                  // per column
  std::vector<std::vector<std::string>> rows;  // each has headers.size() cells
  // Lines to print under the table, e.g. for an operation timed over distinct inputs (its n
  // cell ends in '*'): "* mldsa44_sign (pqclean-clean): 100 distinct inputs; median/p99/min/max
  // are over them".
  std::vector<std::string> footnotes;
};

// `summary` must come from summarize_run(..., RowOrder::kOperation) for grouped rows.
Grid summary_grid(const Summary& summary, GridStyle style = GridStyle::kWide);

}  // namespace fathom::report
