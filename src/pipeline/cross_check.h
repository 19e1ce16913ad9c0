#pragma once
// The cross-check of one image's results on two targets (model::CrossCheck): QEMU's
// instruction counts per timed run against the simulator's, KAT verdicts alike.
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::pipeline {

// Compares `first` (the image's results on its own target) with `second` (the same image and
// run parameters on `second_target`). An operation counts as compared when both measured its
// instructions; differences name the operation and both figures.
model::CrossCheck cross_check(const std::vector<model::OperationResult>& first,
                              const std::string& first_target,
                              const std::vector<model::OperationResult>& second,
                              const std::string& second_target);

}  // namespace fathom::pipeline
