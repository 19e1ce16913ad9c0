#pragma once
// A GitHub-flavoured markdown table of the summary grid (see summary_grid.h), numeric columns
// right-aligned, followed by a bullet list of image-level problems and failed KATs.
#include "report/writer.h"

namespace fathom::report {

class MarkdownWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
