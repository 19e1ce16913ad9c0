#pragma once
// Differential timing (`fathom ct`, docs/CT.md): an operation run once per variant of its secret,
// its public inputs fixed, on a deterministic target. Any difference in cycles between two
// variants is a timing leak: the target has no noise, so one cycle is a finding. A control run
// (the same secret in every run) tells a leak from a difference the secret does not cause: an
// operation that draws fresh randomness per run (Mbed TLS blinds a scalar multiplication with its
// DRBG) may vary with the secret fixed, and then timing alone cannot attribute the difference.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::analysis {

enum class TimingVerdict {
  kConstant,    // every variant took the same cycles (and instructions, where counted)
  kLeak,        // two variants differ, and the control (one secret, every run) does not
  kVaries,      // variants differ, and so do runs with the secret fixed: not attributable
  kNotChecked,  // no variants ran: no secret hook, a failed KAT, no cycles, an image error
};
std::string_view to_string(TimingVerdict verdict);  // "constant", "leak", "varies", "not checked"

struct SampleSpread {
  uint64_t min_cycles = 0, max_cycles = 0;
  uint32_t fastest_run = 0, slowest_run = 0;  // run r = variant r in a variants run
  uint32_t distinct_cycle_counts = 0;
  bool instructions_differ = false;  // where the target counts them
  bool varies() const { return max_cycles != min_cycles || instructions_differ; }
};

struct OperationTiming {
  std::string configuration;
  std::string board;
  std::string operation;
  TimingVerdict verdict = TimingVerdict::kNotChecked;
  std::string reason;  // why not checked, or a note on the control; empty otherwise
  uint32_t variants = 0;
  // Over the variants (run r = variant r); set when checked.
  uint64_t min_cycles = 0, max_cycles = 0;
  uint32_t fastest_variant = 0, slowest_variant = 0;
  uint32_t distinct_cycle_counts = 0;
  // Instructions of the fastest and slowest variant, where the target counts them.
  std::optional<uint64_t> fastest_instructions, slowest_instructions;
  // The control's spread (the secret fixed), when variants differed and the control ran.
  std::optional<SampleSpread> control;
};

// The spread of an operation's timed runs (cycle_samples, instruction_samples); nullopt when it
// has fewer than two cycle samples.
std::optional<SampleSpread> sample_spread(const model::OperationResult& op);

// One entry per operation of every image of `variants`, in result order. `control`: the same
// suite run with the secret fixed (the operations whose variants differed, at least); null when
// there is none, and then every difference is a leak.
std::vector<OperationTiming> timing_verdicts(const model::RunResult& variants,
                                             const model::RunResult* control = nullptr);

}  // namespace fathom::analysis
