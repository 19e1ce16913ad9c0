#pragma once
// Comparison of two runs (`fathom compare A B`): images paired by (configuration, board),
// operations by name, each figure judged against a noise threshold; and the CI gate that lists
// the operations that got worse beyond a user-given percentage.
//
// Data in, data out: this file knows nothing about the history database or output formats.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.h"
#include "model/statistics.h"
#include "util/error.h"

namespace fathom::compare {

// The figures compared. Lower is better for all of them.
enum class Metric {
  kCycles,        // median cycles of the timed runs
  kInstructions,  // median instructions of the timed runs
  kStack,         // peak_stack_bytes
  kHeap,          // heap_peak_bytes
  kFlash,         // flash_bytes of the image (per image, not per operation)
};

// "cycles", "instructions", "stack", "heap", "flash"; a usage error listing these otherwise.
util::Result<Metric> parse_metric(std::string_view name);
std::string_view metric_name(Metric metric);

// One `--fail-above PCT[:metric]`: trip when `metric` got worse by more than `percent`.
struct GateRule {
  double percent = 0;  // >= 0
  Metric metric = Metric::kCycles;
};

// Parses "PCT" or "PCT:metric" (metric default cycles). A usage error naming the text for a
// percentage that is not a finite number >= 0 or an unknown metric.
util::Result<GateRule> parse_gate_rule(std::string_view text);

enum class Verdict {
  kUnchanged,     // |delta| within the noise threshold
  kBetter,        // faster (cycles, instructions) or smaller (bytes) beyond the threshold
  kWorse,         // slower or larger beyond the threshold
  kMissingInA,    // only B has it
  kMissingInB,    // only A has it
  kNoTiming,      // the KAT did not pass on a side: numbers are never compared then
  kNotMeasured,   // neither side measured this figure (no instruction counter, no heap hook)
};

// "unchanged", "faster"/"smaller", "slower"/"larger", "missing-in-A", "missing-in-B",
// "no-timing", "not-measured" — the better/worse words depend on `metric`.
std::string_view verdict_name(Verdict verdict, Metric metric);

struct CompareOptions {
  // Noise threshold in percent of A. Simulator results (provenance.timing_model non-empty on
  // both sides) use it as is; when either side has none (a board), cycles and instructions use
  // max(threshold_percent, 3 × the larger relative spread of the two sample sets), the
  // spread being 1.4826 × MAD / median of the samples (model::spread).
  double threshold_percent = model::kNoiseThresholdPercent;
  std::vector<GateRule> fail_above;  // the CI gate; empty = no gate
};

// One figure on both sides.
struct MetricComparison {
  Metric metric = Metric::kCycles;
  std::optional<double> a;
  std::optional<double> b;
  // Set only when both values are and the verdict compares numbers (never for kNoTiming).
  std::optional<double> delta;          // b - a
  std::optional<double> ratio;          // b / a; unset when a == 0
  std::optional<double> delta_percent;  // (b - a) / a × 100; unset when a == 0
  double threshold_percent = 0;         // the noise threshold applied
  Verdict verdict = Verdict::kNotMeasured;
};

struct OperationComparison {
  std::string operation;
  // The operation has timing on that side (OperationResult::has_timing: present, its KAT
  // passed, timed); false where it is missing.
  bool timed_a = false;
  bool timed_b = false;
  bool kat_passed_b = false;  // B has it and its known-answer test passed there
  // Cycles, instructions, stack, heap, in that order.
  std::vector<MetricComparison> metrics;

  // The comparison of `metric`, or nullptr (kFlash is per image).
  const MetricComparison* find(Metric metric) const;
};

// Two paired images (or one image without a partner: its operations are missing-in-A/B).
struct ImageComparison {
  std::string configuration_a;  // "" when A has no such image
  std::string configuration_b;  // "" when B has no such image
  std::string board_a;
  std::string board_b;
  // The targets that ran them (Provenance::target: "sim", "qemu", "serial"; "" in files made
  // before targets, which were all the simulator's).
  std::string target_a;
  std::string target_b;
  MetricComparison flash;
  std::vector<OperationComparison> operations;  // A's order, then operations only in B
};

struct Comparison {
  CompareOptions options;
  std::vector<ImageComparison> images;  // A's image order, then images only in B
};

// Pairs images by (configuration, board); when each run has exactly one image and they did
// not pair that way, those two are paired (so "mbedtls" vs "mbedtls-no-nist-optim" works).
// An image left unpaired is paired by configuration alone with the one image of that
// configuration on the other side that is also unpaired and ran on another target (a
// simulated run against a board run of the same configuration: sim-m33 vs nrf54l15dk).
// Then pairs operations by name and compares every figure.
Comparison compare_runs(const model::RunResult& a, const model::RunResult& b,
                        const CompareOptions& options);

// How many operations the two sides share: the gate judges only those. An operation counts as
// shared when both sides have it (whatever its verdicts, no-timing included).
struct Coverage {
  size_t in_both = 0;
  size_t only_in_a = 0;
  size_t only_in_b = 0;
};
Coverage coverage(const Comparison& comparison);

// One figure that tripped a gate rule.
struct Regression {
  std::string configuration;  // B's configuration
  std::string board;          // B's board
  std::string operation;      // "" for the image's flash size
  GateRule rule;
  MetricComparison comparison;
};

// The figures that got worse (verdict kWorse) by more than a rule of options.fail_above, in
// image and operation order, once per rule. Empty when there is no rule.
std::vector<Regression> regressions(const Comparison& comparison);

// Operations in both A and B that B has no timing for although it should: its known-answer
// test did not pass in B, or A timed it and B did not. What a gate cannot judge and must not let
// pass. (An operation neither side times by design, a library's gate, is not one of them.)
struct Unjudged {
  std::string configuration;  // B's
  std::string board;          // B's
  std::string operation;
};
std::vector<Unjudged> untimed_in_b(const Comparison& comparison);

}  // namespace fathom::compare

namespace fathom::compare {
// The simulator's figure over the board's for a pair of a simulated and a silicon (serial)
// image: how far to trust the model on that part (1.0 = exact). nullopt for other pairs or a
// figure missing on a side.
std::optional<double> model_over_silicon(const ImageComparison& image, const MetricComparison& m);
}  // namespace fathom::compare
