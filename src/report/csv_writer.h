#pragma once
// RFC 4180 CSV: a header row, then one row per (image, operation); an image without operations
// gets one row with an empty operation. Units are in the header names; numbers carry no
// thousands separators; a missing value is an empty field. The ratio column appears only
// when the run has at least two configurations.
#include "report/writer.h"

namespace fathom::report {

class CsvWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
