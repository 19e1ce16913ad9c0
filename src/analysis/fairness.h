#pragma once
// The fairness control: evidence that the images of a comparison differ only in what is under
// test. Operations that run identical code in every image of a comparison group (e.g.
// HKDF-SHA256 and HMAC-SHA256 from the same library build) must agree within a tolerance; a
// spread above it means something else differs between the images (code placement, flash
// wait states, a different C library under the hood) and the comparison is flagged.
//
// A comparison group is the set of images on the same board built from the same library, C
// library and compiler flags, with the same Configuration::fairness_group: configurations
// that differ only in library options, which the control operations do not use.
#include <vector>

#include "model/analysis.h"
#include "model/run_result.h"
#include "model/suite.h"

namespace fathom::analysis {

// Checks `spec`'s operations over `run`'s images, grouped as above. `suite` supplies each
// image's fairness group (by configuration name). A check needs the operation timed in at
// least two images of a group; groups of one image are not comparisons and give no check.
std::vector<model::FairnessCheck> check_fairness(const model::RunResult& run,
                                                 const model::Suite& suite,
                                                 const model::FairnessSpec& spec);

}  // namespace fathom::analysis
