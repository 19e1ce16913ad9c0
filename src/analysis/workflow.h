#pragma once
// Device workflows: a task the device performs ("receive a new key"), in variants (classical,
// post-quantum), composed from operations measured in one image. Each step's cycles are the
// sum of its operations' median cycles, the whole is the sum of the steps; the bytes on the
// wire and the bytes stored are the sizes the operations themselves report (BYTES records,
// from the code's own size constants); the workflow's peak stack is the largest peak of its
// operations (they run one after another), and so is its heap peak (each operation's peak
// above the bytes in use at its start).
#include <vector>

#include "model/analysis.h"
#include "model/run_result.h"
#include "model/suite.h"

namespace fathom::analysis {

// Evaluates every variant of every workflow in every image that offers all of the variant's
// operations. An image that lacks one of them is skipped; a variant that no image offers
// gives one result with an error naming what is missing. An operation without timing (its
// KAT failed) or a size it did not report makes that image's result an error.
std::vector<model::WorkflowResult> evaluate_workflows(const model::RunResult& run,
                                                      const std::vector<model::Workflow>& flows);

// The cheapest variant of each workflow per (configuration, board), from evaluated results
// (those with an error are left out); in the order the workflows first appear.
std::vector<model::WorkflowVerdict> workflow_verdicts(const std::vector<model::WorkflowResult>& results);

}  // namespace fathom::analysis
