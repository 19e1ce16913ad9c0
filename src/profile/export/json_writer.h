#pragma once
// fathom's own per-function table as JSON, what `fathom profile` prints, complete (every
// function, not only the top rows), for scripts and for checking the other exports:
//   {"source", "board", "clock_hz", "timing_model",
//    "profiles": [{"name", "total_cycles", "total_instructions", "executions",
//                  "execution_cycles": [...], "peak_stack_bytes",
//                  "functions": [{"name", "file"?, "line"?, "address", "inlined",
//                                 "calls", "exclusive_cycles", "inclusive_cycles",
//                                 "exclusive_instructions", "inclusive_instructions"}]}]}
// Costs as defined in profile/function_summary.h, rows in its order.
#include "profile/export/profile_writer.h"

namespace fathom::profile {

class JsonWriter final : public ProfileWriter {
 public:
  void write(const ProfileSet& profiles, std::ostream& out) const override;
};

}  // namespace fathom::profile
