#include "analysis/timing_leak.h"

#include <algorithm>
#include <set>

namespace fathom::analysis {

std::string_view to_string(TimingVerdict verdict) {
  switch (verdict) {
    case TimingVerdict::kConstant: return "constant";
    case TimingVerdict::kLeak: return "leak";
    case TimingVerdict::kVaries: return "varies";
    case TimingVerdict::kNotChecked: return "not checked";
  }
  return "not checked";
}

std::optional<SampleSpread> sample_spread(const model::OperationResult& op) {
  const auto& c = op.cycle_samples;
  if (c.size() < 2) return std::nullopt;
  SampleSpread s;
  const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
  s.min_cycles = *lo;
  s.max_cycles = *hi;
  s.fastest_run = static_cast<uint32_t>(lo - c.begin());
  s.slowest_run = static_cast<uint32_t>(hi - c.begin());
  s.distinct_cycle_counts = static_cast<uint32_t>(std::set<uint64_t>(c.begin(), c.end()).size());
  const auto& n = op.instruction_samples;
  s.instructions_differ =
      n.size() == c.size() && std::set<uint64_t>(n.begin(), n.end()).size() > 1;
  return s;
}

namespace {

const model::OperationResult* find_operation(const model::RunResult* run,
                                             const model::ImageResult& image,
                                             const std::string& operation) {
  if (!run) return nullptr;
  for (const auto& other : run->images) {
    if (other.configuration != image.configuration || other.board != image.board) continue;
    for (const auto& op : other.operations)
      if (op.operation == operation) return &op;
  }
  return nullptr;
}

OperationTiming judge(const model::ImageResult& image, const model::OperationResult& op,
                      const model::RunResult* control_run) {
  OperationTiming t;
  t.configuration = image.configuration;
  t.board = image.board;
  t.operation = op.operation;
  t.variants = op.secret_variants;
  auto not_checked = [&](std::string reason) {
    t.verdict = TimingVerdict::kNotChecked;
    t.reason = std::move(reason);
    return t;
  };
  if (op.kat != model::KatStatus::kPassed)
    return not_checked(op.error.empty() ? "its known-answer tests did not pass"
                                        : "no timing: " + op.error);
  if (op.secret_variants == 0)
    return not_checked("the workload declares no secret variants (fathom_op.secret)");
  if (!op.has_timing()) return not_checked("the target measured no cycles");
  const auto spread = sample_spread(op);
  if (op.cycle_samples.size() != op.secret_variants || !spread)
    return not_checked("fewer than two variants were timed");
  t.min_cycles = spread->min_cycles;
  t.max_cycles = spread->max_cycles;
  t.fastest_variant = spread->fastest_run;
  t.slowest_variant = spread->slowest_run;
  t.distinct_cycle_counts = spread->distinct_cycle_counts;
  if (op.instruction_samples.size() == op.cycle_samples.size()) {
    t.fastest_instructions = op.instruction_samples[t.fastest_variant];
    t.slowest_instructions = op.instruction_samples[t.slowest_variant];
  }
  if (!spread->varies()) {
    t.verdict = TimingVerdict::kConstant;
    return t;
  }
  t.verdict = TimingVerdict::kLeak;
  if (!control_run) return t;
  const model::OperationResult* control = find_operation(control_run, image, op.operation);
  const auto control_spread =
      control && control->kat == model::KatStatus::kPassed && control->has_timing()
          ? sample_spread(*control)
          : std::nullopt;
  if (!control_spread) {
    t.reason = "the control run (the secret fixed) gave no timing; reported as a leak";
    return t;
  }
  t.control = control_spread;
  if (!control_spread->varies()) return t;
  // The control varies too: pair run r of each. That needs runs that start alike (each
  // operation from the post-boot snapshot, so the control's smaller selection of operations
  // changes nothing) and the same number of them.
  t.verdict = TimingVerdict::kVaries;
  const model::ImageResult* control_image = nullptr;
  for (const auto& other : control_run->images)
    if (other.configuration == image.configuration && other.board == image.board)
      control_image = &other;
  if (image.provenance.isolation != "snapshot" || !control_image ||
      control_image->provenance.isolation != "snapshot") {
    t.reason = "the runs are not isolated by snapshot, so variant and control runs cannot be "
               "paired";
    return t;
  }
  if (control->cycle_samples.size() != op.cycle_samples.size()) {
    t.reason = "the control timed a different number of runs, so they cannot be paired";
    return t;
  }
  const bool instructions = op.instruction_samples.size() == op.cycle_samples.size() &&
                            control->instruction_samples.size() == op.cycle_samples.size();
  PairedDifference paired;
  for (size_t r = 0; r < op.cycle_samples.size(); ++r) {
    const uint64_t a = op.cycle_samples[r], b = control->cycle_samples[r];
    const uint64_t d = a > b ? a - b : b - a;
    if (d == 0 && !(instructions && op.instruction_samples[r] != control->instruction_samples[r]))
      continue;
    ++paired.differing_runs;
    if (d > paired.max_cycles || paired.differing_runs == 1) {
      paired.max_cycles = d;
      paired.max_run = static_cast<uint32_t>(r);
    }
  }
  t.paired = paired;
  if (paired.differing_runs > 0) t.verdict = TimingVerdict::kLeak;
  return t;
}

}  // namespace

std::vector<OperationTiming> timing_verdicts(const model::RunResult& variants,
                                             const model::RunResult* control) {
  std::vector<OperationTiming> out;
  for (const auto& image : variants.images) {
    if (image.operations.empty() && !image.error.empty()) {
      OperationTiming t;
      t.configuration = image.configuration;
      t.board = image.board;
      t.reason = "the image did not run: " + image.error;
      out.push_back(std::move(t));
      continue;
    }
    for (const auto& op : image.operations) out.push_back(judge(image, op, control));
  }
  return out;
}

}  // namespace fathom::analysis
