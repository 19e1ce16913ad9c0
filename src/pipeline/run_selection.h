#pragma once
// How many timed runs each operation of an image gets. The simulator is exactly deterministic:
// an operation whose input does not change between runs gives the same counts every time, so
// on a deterministic target (target::Target::deterministic()) such an operation makes
// kFixedInputRuns timed runs instead of the suite's `runs` — two, not one, so that every run
// checks the claim (two different samples mean the operation does draw fresh inputs and
// belongs in the suite's `fresh_inputs`; report/sample_spread.h warns). Operations the suite
// declares in `fresh_inputs` (glob patterns), every operation on a target that is not
// deterministic (a board), and every operation when the command line gives `--runs N` keep the
// count asked for. Warm-up and the memory run are not affected.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::pipeline {

inline constexpr uint32_t kFixedInputRuns = 2;

struct RunSelectionInputs {
  uint32_t suite_runs = 10;                    // model::Suite::runs
  std::optional<uint32_t> command_line_runs;   // `--runs N` (RunOptions::runs)
  std::vector<std::string> fresh_inputs;       // model::Suite::fresh_inputs (glob patterns)
  bool deterministic_target = false;           // target::Target::deterministic()
};

struct OperationRuns {
  uint32_t runs = 0;  // timed runs to ask the harness for
  model::RunsReason reason = model::RunsReason::kUnknown;
};

// Whether `operation` matches one of `fresh_inputs`' patterns (util/glob.h).
bool draws_fresh_inputs(const std::vector<std::string>& fresh_inputs, const std::string& operation);

// The timed runs for `operation`: the command line's count if given (kCommandLine); else, on a
// deterministic target, the suite's runs for a declared operation (kFreshInputs) and
// min(suite runs, kFixedInputRuns) for any other (kFixedInputs when that is fewer, kSuite when
// the suite asks for no more); on any other target the suite's runs (kSuite).
OperationRuns select_runs(const RunSelectionInputs& inputs, const std::string& operation);

// select_runs() for each of `operations`, by name.
std::map<std::string, OperationRuns> select_runs(const RunSelectionInputs& inputs,
                                                 const std::vector<std::string>& operations);

// Records in each measured operation of `results` the runs asked for and why (from
// `selected`; an operation not in it keeps kUnknown) and whether its samples were identical.
void record_runs(std::vector<model::OperationResult>& results,
                 const std::map<std::string, OperationRuns>& selected);

}  // namespace fathom::pipeline
