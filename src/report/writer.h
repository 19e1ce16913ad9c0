#pragma once
// Report writers: one class per output format behind one small interface (as google/benchmark
// has one reporter per format). Every writer is deterministic: the same RunResult gives the
// same bytes.
//
// Shared rule: a number measured for an operation is printed only if that operation's KAT
// passed in that image (OperationResult::kat == kPassed); a failed or missing KAT shows no
// cycle, instruction or memory figure in any format, whatever the result holds.
#include <cstddef>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.h"
#include "util/error.h"

namespace fathom::report {

class Writer {
 public:
  virtual ~Writer() = default;
  // Writes all of `run` to `out`. Never throws for any content of `run` (empty runs, failed
  // images and missing statistics all print).
  virtual void write(const model::RunResult& run, std::ostream& out) const = 0;
};

// The "table" format's options (table_writer.h); other formats have none.
struct TableOptions {
  bool wide = false;  // every column (fathom run --wide); else the compact set
  size_t width = 0;   // fit to this many terminal columns; 0: no limit (not a terminal)
};

// Names accepted by make_writer, in the order shown in help texts.
const std::vector<std::string>& writer_formats();

// The writer for `format` ("table", "json", "csv", "markdown", "gbench", "github-benchmark",
// "pqm4-md"); an error
// listing the valid names for anything else. `table` applies to the "table" format.
util::Result<std::unique_ptr<Writer>> make_writer(std::string_view format,
                                                  TableOptions table = {});

}  // namespace fathom::report
