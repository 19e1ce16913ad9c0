#pragma once
// Differential timing (`fathom ct`, docs/CT.md): an operation run once per variant of its secret,
// its public inputs fixed, on a deterministic target. Any difference in cycles between two
// variants is a timing leak: the target has no noise, so one cycle is a finding. A control run
// (the same secret in every run) tells a leak from a difference the secret does not cause: an
// operation that draws fresh randomness per run (Mbed TLS blinds a scalar multiplication with its
// DRBG) or whose allocator settles over its first runs varies with the secret fixed too. Then
// each variant is compared with the control's run at the same position: both start from the same
// post-boot state (snapshot isolation) and draw the same random stream, so the secrets written
// before each run are the only difference between the two executions, and any difference in
// cycles at one position is the secret's doing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::analysis {

enum class TimingVerdict {
  kConstant,    // every variant took the same cycles (and instructions, where counted)
  kLeak,        // two variants differ, and the control (one secret, every run) does not, or a
                // variant differs from the control's run at the same position
  kVaries,      // variants differ, each exactly as the control's run at its position: the time
                // varies per run, not with the secret
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

// Variant r against the control's run r (cycles, and instructions where counted).
struct PairedDifference {
  uint32_t differing_runs = 0;      // positions where the two differ
  uint64_t max_cycles = 0;          // the largest |variant r - control r| in cycles
  uint32_t max_run = 0;             // where it is
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
  // When the control varied too: each variant against the control's run at its position; unset
  // when the two cannot be paired (and then `reason` says why).
  std::optional<PairedDifference> paired;
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
