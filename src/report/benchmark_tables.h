#pragma once
// Markdown benchmark tables in the layout of pqm4's benchmarks.md, the form the post-quantum
// embedded benchmarking community reads: one table per kind of figure, units in every header,
// the run count beside every statistic. `fathom run --format pqm4-md`.
//
//   ## Speed               operation | implementation | runs | AVG [cycles] | median [cycles] |
//                          MIN [cycles] | MAX [cycles]   (AVG = mean over the timed runs)
//   ## Memory              operation | implementation | stack [bytes] | heap [bytes]
//   ## Primitive share     operation | implementation | <group> [%] …   (only when an operation
//                          has OperationResult::primitive_share; a group it lacks is "-"; a
//                          group at 0 % in every row has no column)
//   ## Size                implementation | flash [bytes] | RAM [bytes]   (images with a size)
//   ## Problems            faults, build errors and failed KATs (summary.h)
//
// "implementation" is the configuration name. A "board" column follows it when the run has
// several boards; a line per board under the title names its core, clock and timing model.
// Rows are grouped by board, then operation, then configuration (RowOrder::kOperation). An
// operation without timing keeps its row with "-" in every figure (writer.h's shared rule).
#include "report/writer.h"

namespace fathom::report {

class BenchmarkTablesWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
