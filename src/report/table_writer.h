#pragma once
// Aligned columns for people: a header line, the summary grid (see summary_grid.h) with
// thousands separators in cycle counts, then the image-level problems and failed KATs.
//
// Compact by default (operation, configuration, median, time, ratio, stack, heap, KAT), every
// column with TableOptions::wide. Given a width (the terminal's), the table fits it
// (report/text_table.h: names shortened in the middle, numbers never) and the lines under it
// wrap at words.
#include "report/writer.h"

namespace fathom::report {

class TableWriter final : public Writer {
 public:
  explicit TableWriter(TableOptions options = {}) : options_(options) {}
  void write(const model::RunResult& run, std::ostream& out) const override;

 private:
  TableOptions options_;
};

}  // namespace fathom::report
