#include "model/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace fathom::model {

std::optional<Statistics> summarize(const std::vector<uint64_t>& samples) {
  if (samples.empty()) return std::nullopt;
  std::vector<uint64_t> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  Statistics s;
  s.count = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  const size_t mid = sorted.size() / 2;
  s.median = sorted.size() % 2 ? static_cast<double>(sorted[mid])
                               : (static_cast<double>(sorted[mid - 1]) + sorted[mid]) / 2.0;
  // Nearest-rank percentile: the smallest value with at least 99% of samples at or below it.
  const auto rank = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(sorted.size())));
  s.p99 = static_cast<double>(sorted[std::max<size_t>(rank, 1) - 1]);
  long double sum = 0;
  for (uint64_t v : sorted) sum += v;
  s.mean = static_cast<double>(sum / sorted.size());
  return s;
}

namespace {

double median_of_sorted(const std::vector<double>& sorted) {
  const size_t mid = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
}

// Percentile `p` (0..1) of sorted values, interpolating linearly between the closest ranks
// (the "R-7" definition of Hyndman & Fan, numpy's default).
double percentile_of_sorted(const std::vector<double>& sorted, double p) {
  const double position = p * static_cast<double>(sorted.size() - 1);
  const auto below = static_cast<size_t>(std::floor(position));
  const size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (position - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

std::optional<Spread> spread(const std::vector<uint64_t>& samples) {
  if (samples.empty()) return std::nullopt;
  std::vector<double> sorted(samples.begin(), samples.end());
  std::sort(sorted.begin(), sorted.end());
  Spread s;
  s.median = median_of_sorted(sorted);
  s.q1 = percentile_of_sorted(sorted, 0.25);
  s.q3 = percentile_of_sorted(sorted, 0.75);
  s.iqr = s.q3 - s.q1;
  std::vector<double> deviations;
  deviations.reserve(sorted.size());
  for (double v : sorted) deviations.push_back(std::fabs(v - s.median));
  std::sort(deviations.begin(), deviations.end());
  s.mad = median_of_sorted(deviations);
  return s;
}

}  // namespace fathom::model
