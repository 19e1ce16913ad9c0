#pragma once
// Aligned columns for people: a header line, the summary grid (see summary_grid.h) with
// thousands separators in cycle counts, then the image-level problems and failed KATs.
#include "report/writer.h"

namespace fathom::report {

class TableWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
