#include "compare/comparison.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace fathom::compare {
namespace {

// Board results: the noise threshold is this many robust standard deviations of the noisier
// side (docs/CLI.md "compare").
constexpr double kSpreadsInThreshold = 3.0;
constexpr double kMadToStandardDeviation = 1.4826;

constexpr Metric kOperationMetrics[] = {Metric::kCycles, Metric::kInstructions, Metric::kStack,
                                        Metric::kHeap};

std::optional<double> operation_value(const model::OperationResult& op, Metric metric) {
  switch (metric) {
    case Metric::kCycles:
      if (op.cycles) return op.cycles->median;
      return std::nullopt;
    case Metric::kInstructions:
      if (op.instructions) return op.instructions->median;
      return std::nullopt;
    case Metric::kStack:
      if (op.peak_stack_bytes) return static_cast<double>(*op.peak_stack_bytes);
      return std::nullopt;
    case Metric::kHeap:
      if (op.heap_peak_bytes) return static_cast<double>(*op.heap_peak_bytes);
      return std::nullopt;
    case Metric::kFlash:
      return std::nullopt;
  }
  return std::nullopt;
}

// Relative spread of one sample set: a robust standard deviation over the median,
// 1.4826 × MAD / median (1.4826 makes the MAD of normally distributed noise equal its standard
// deviation), from the samples when there are at least two, so that one run an interrupt hit
// does not widen the threshold; else (max - min) / median from the statistics; 0 when neither
// can be computed.
double relative_spread(const std::vector<uint64_t>& samples,
                       const std::optional<model::Statistics>& stats) {
  if (samples.size() >= 2) {
    const auto s = model::spread(samples);
    return kMadToStandardDeviation * s->relative_mad();
  }
  if (stats && stats->median > 0)
    return static_cast<double>(stats->max - stats->min) / stats->median;
  return 0;
}

double spread_of(const model::OperationResult& op, Metric metric) {
  if (metric == Metric::kCycles) return relative_spread(op.cycle_samples, op.cycles);
  if (metric == Metric::kInstructions)
    return relative_spread(op.instruction_samples, op.instructions);
  return 0;  // memory figures are deterministic
}

// Judges two present values against `threshold_percent`.
void judge(MetricComparison& m) {
  if (!m.a && !m.b) {
    m.verdict = Verdict::kNotMeasured;
    return;
  }
  if (!m.a) {
    m.verdict = Verdict::kMissingInA;
    return;
  }
  if (!m.b) {
    m.verdict = Verdict::kMissingInB;
    return;
  }
  m.delta = *m.b - *m.a;
  if (*m.a == 0) {
    m.verdict = *m.b == 0 ? Verdict::kUnchanged : Verdict::kWorse;
    return;
  }
  m.ratio = *m.b / *m.a;
  m.delta_percent = *m.delta / *m.a * 100.0;
  if (*m.delta_percent > m.threshold_percent)
    m.verdict = Verdict::kWorse;
  else if (*m.delta_percent < -m.threshold_percent)
    m.verdict = Verdict::kBetter;
  else
    m.verdict = Verdict::kUnchanged;
}

OperationComparison compare_operation(const model::OperationResult* a,
                                      const model::OperationResult* b, bool hardware,
                                      const CompareOptions& options) {
  OperationComparison out;
  out.operation = a ? a->operation : b->operation;
  out.timed_a = a && a->has_timing();
  out.timed_b = b && b->has_timing();
  out.kat_passed_b = b && b->kat == model::KatStatus::kPassed;
  const bool no_timing = (a && !a->has_timing()) || (b && !b->has_timing());
  for (Metric metric : kOperationMetrics) {
    MetricComparison m;
    m.metric = metric;
    m.threshold_percent = options.threshold_percent;
    if (a && a->has_timing()) m.a = operation_value(*a, metric);
    if (b && b->has_timing()) m.b = operation_value(*b, metric);
    if (!a) {
      m.verdict = Verdict::kMissingInA;
    } else if (!b) {
      m.verdict = Verdict::kMissingInB;
    } else if (no_timing) {
      m.verdict = Verdict::kNoTiming;
    } else {
      if (hardware)
        m.threshold_percent = std::max(
            options.threshold_percent,
            kSpreadsInThreshold * 100.0 *
                std::max(spread_of(*a, metric), spread_of(*b, metric)));
      judge(m);
    }
    out.metrics.push_back(m);
  }
  return out;
}

const model::OperationResult* find_operation(const model::ImageResult* image,
                                             const std::string& name) {
  if (!image) return nullptr;
  for (const auto& op : image->operations)
    if (op.operation == name) return &op;
  return nullptr;
}

ImageComparison compare_image(const model::ImageResult* a, const model::ImageResult* b,
                              const CompareOptions& options) {
  ImageComparison out;
  if (a) {
    out.configuration_a = a->configuration;
    out.board_a = a->board;
    out.target_a = a->provenance.target;
  }
  if (b) {
    out.configuration_b = b->configuration;
    out.board_b = b->board;
    out.target_b = b->provenance.target;
  }
  out.flash.metric = Metric::kFlash;
  out.flash.threshold_percent = options.threshold_percent;
  if (a && a->size) out.flash.a = static_cast<double>(a->size->flash_bytes);
  if (b && b->size) out.flash.b = static_cast<double>(b->size->flash_bytes);
  judge(out.flash);
  if (!a) out.flash.verdict = Verdict::kMissingInA;
  if (!b) out.flash.verdict = Verdict::kMissingInB;

  // Hardware results (no timing model) carry run-to-run noise; simulator results do not.
  const bool hardware =
      (a && a->provenance.timing_model.empty()) || (b && b->provenance.timing_model.empty());
  if (a)
    for (const auto& op : a->operations)
      out.operations.push_back(
          compare_operation(&op, find_operation(b, op.operation), hardware, options));
  if (b)
    for (const auto& op : b->operations)
      if (!find_operation(a, op.operation))
        out.operations.push_back(compare_operation(nullptr, &op, hardware, options));
  return out;
}

const model::ImageResult* find_image(const model::RunResult& run, const model::ImageResult& like) {
  for (const auto& image : run.images)
    if (image.configuration == like.configuration && image.board == like.board) return &image;
  return nullptr;
}

}  // namespace

util::Result<Metric> parse_metric(std::string_view name) {
  for (Metric m : {Metric::kCycles, Metric::kInstructions, Metric::kStack, Metric::kHeap,
                   Metric::kFlash})
    if (metric_name(m) == name) return m;
  return util::fail_usage("unknown metric '" + std::string(name) +
                          "'; use cycles, instructions, stack, heap or flash");
}

std::string_view metric_name(Metric metric) {
  switch (metric) {
    case Metric::kCycles: return "cycles";
    case Metric::kInstructions: return "instructions";
    case Metric::kStack: return "stack";
    case Metric::kHeap: return "heap";
    case Metric::kFlash: return "flash";
  }
  return "?";
}

util::Result<GateRule> parse_gate_rule(std::string_view text) {
  GateRule rule;
  const auto colon = text.find(':');
  const std::string percent(text.substr(0, colon));
  if (colon != std::string_view::npos) {
    auto metric = parse_metric(text.substr(colon + 1));
    if (!metric)
      return util::fail_usage("--fail-above '" + std::string(text) + "': " +
                              metric.error().message);
    rule.metric = *metric;
  }
  errno = 0;
  char* end = nullptr;
  const double value = percent.empty() ? NAN : std::strtod(percent.c_str(), &end);
  if (percent.empty() || errno != 0 || end != percent.c_str() + percent.size() ||
      !std::isfinite(value) || value < 0)
    return util::fail_usage("--fail-above '" + std::string(text) +
                            "': expected PCT[:metric] with PCT a number >= 0, e.g. 5 or 5:stack");
  rule.percent = value;
  return rule;
}

std::string_view verdict_name(Verdict verdict, Metric metric) {
  const bool time = metric == Metric::kCycles || metric == Metric::kInstructions;
  switch (verdict) {
    case Verdict::kUnchanged: return "unchanged";
    case Verdict::kBetter: return time ? "faster" : "smaller";
    case Verdict::kWorse: return time ? "slower" : "larger";
    case Verdict::kMissingInA: return "missing-in-A";
    case Verdict::kMissingInB: return "missing-in-B";
    case Verdict::kNoTiming: return "no-timing";
    case Verdict::kNotMeasured: return "not-measured";
  }
  return "?";
}

const MetricComparison* OperationComparison::find(Metric metric) const {
  for (const auto& m : metrics)
    if (m.metric == metric) return &m;
  return nullptr;
}

Comparison compare_runs(const model::RunResult& a, const model::RunResult& b,
                        const CompareOptions& options) {
  Comparison out;
  out.options = options;
  if (a.images.size() == 1 && b.images.size() == 1 && !find_image(b, a.images[0])) {
    out.images.push_back(compare_image(&a.images[0], &b.images[0], options));
    return out;
  }
  // An unpaired image's partner by configuration on another target (a board run of the same
  // configuration as a simulated one), when exactly one such image is unpaired.
  auto target_of = [](const model::ImageResult& i) {
    return i.provenance.target.empty() ? std::string("sim") : i.provenance.target;
  };
  auto partner_by_configuration = [&](const model::RunResult& other_run,
                                      const model::RunResult& this_run,
                                      const model::ImageResult& image) -> const model::ImageResult* {
    const model::ImageResult* found = nullptr;
    for (const auto& other : other_run.images) {
      if (other.configuration != image.configuration || find_image(this_run, other) ||
          target_of(other) == target_of(image))
        continue;
      if (found) return nullptr;  // ambiguous
      found = &other;
    }
    return found;
  };
  std::vector<const model::ImageResult*> b_taken;
  for (const auto& image : a.images) {
    const model::ImageResult* partner = find_image(b, image);
    if (!partner) {
      partner = partner_by_configuration(b, a, image);
      if (partner) b_taken.push_back(partner);
    }
    out.images.push_back(compare_image(&image, partner, options));
  }
  for (const auto& image : b.images)
    if (!find_image(a, image) &&
        std::find(b_taken.begin(), b_taken.end(), &image) == b_taken.end())
      out.images.push_back(compare_image(nullptr, &image, options));
  return out;
}

Coverage coverage(const Comparison& comparison) {
  Coverage out;
  for (const auto& image : comparison.images)
    for (const auto& op : image.operations) {
      const Verdict v = op.metrics.empty() ? Verdict::kNotMeasured : op.metrics.front().verdict;
      if (v == Verdict::kMissingInA)
        ++out.only_in_b;
      else if (v == Verdict::kMissingInB)
        ++out.only_in_a;
      else
        ++out.in_both;
    }
  return out;
}

std::vector<Unjudged> untimed_in_b(const Comparison& comparison) {
  std::vector<Unjudged> out;
  for (const auto& image : comparison.images)
    for (const auto& op : image.operations) {
      const Verdict v = op.metrics.empty() ? Verdict::kNotMeasured : op.metrics.front().verdict;
      if (v != Verdict::kMissingInA && v != Verdict::kMissingInB && !op.timed_b &&
          (!op.kat_passed_b || op.timed_a))
        out.push_back({image.configuration_b, image.board_b, op.operation});
    }
  return out;
}

std::vector<Regression> regressions(const Comparison& comparison) {
  std::vector<Regression> out;
  auto check = [&](const ImageComparison& image, const std::string& operation,
                   const MetricComparison& m) {
    for (const auto& rule : comparison.options.fail_above) {
      if (rule.metric != m.metric || m.verdict != Verdict::kWorse) continue;
      // delta_percent is unset only for a == 0 < b: an unbounded increase.
      if (m.delta_percent && *m.delta_percent <= rule.percent) continue;
      out.push_back({image.configuration_b, image.board_b, operation, rule, m});
    }
  };
  for (const auto& image : comparison.images) {
    check(image, "", image.flash);
    for (const auto& op : image.operations)
      for (const auto& m : op.metrics) check(image, op.operation, m);
  }
  return out;
}

}  // namespace fathom::compare

namespace fathom::compare {

std::optional<double> model_over_silicon(const ImageComparison& image, const MetricComparison& m) {
  auto is_sim = [](const std::string& t) { return t.empty() || t == "sim"; };
  if (!m.a || !m.b || *m.a <= 0 || *m.b <= 0) return std::nullopt;
  if (is_sim(image.target_a) && image.target_b == "serial") return *m.a / *m.b;
  if (image.target_a == "serial" && is_sim(image.target_b)) return *m.b / *m.a;
  return std::nullopt;
}

}  // namespace fathom::compare
