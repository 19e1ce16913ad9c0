#pragma once
// Text sections for the fairness control and device workflows of a run (model/analysis.h),
// shared by the table and markdown writers. Each function returns the lines of its section,
// without a trailing newline; an empty vector when the run has nothing to show.
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::report {

// "fairness control (identical code must agree within 0.5%):" followed by one line per check:
// "  hkdf_sha256 in mbedtls, newlib-nano, -O2 on sim-m33: 44,847 .. 44,853 cycles, spread
// 0.013% over 2 images: pass" — "FAIL" (upper case) for a failed check.
std::vector<std::string> fairness_lines(const model::RunResult& run);

// One block per workflow variant and image: the steps with cycles and time, the total, the
// bytes on the wire and stored (with what they are made of) and the peak stack; an error line
// for a variant that could not be evaluated.
std::vector<std::string> workflow_lines(const model::RunResult& run);

}  // namespace fathom::report
