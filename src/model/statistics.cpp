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

}  // namespace fathom::model
