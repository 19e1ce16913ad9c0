#pragma once
// Operations that the suite did not declare in `fresh_inputs` but whose timed runs differed on
// a deterministic target. Such an operation got fewer runs (pipeline/run_selection.h) on the
// claim that its input is fixed; two different samples disprove the claim: it draws fresh
// inputs per run and its figures need the suite's full count. A warning, not an error: the
// samples it has are real measurements. Derived from the results, so reused and stored results
// say it too.
#include <cstdint>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::report {

struct SampleSpread {
  const model::ImageResult* image = nullptr;
  const model::OperationResult* operation = nullptr;
};

// Every measured operation of `run` with RunsReason::kFixedInputs whose samples are not
// identical (an operation over distinct inputs, distinct_inputs != 0, differs by design and is
// not listed), in image and operation order.
std::vector<SampleSpread> fixed_input_spreads(const model::RunResult& run);

// "WARNING: ecdsa_p256_sign (mbedtls on sim-m33): its 2 timed runs differ on a deterministic
// target (12,345 to 12,400 cycles), so its input is not fixed per run: declare it in the
// suite's fresh_inputs to measure it with the suite's runs".
std::string sample_spread_text(const SampleSpread& spread);

}  // namespace fathom::report
