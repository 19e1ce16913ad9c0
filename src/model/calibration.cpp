#include "model/calibration.h"

#include <algorithm>
#include <cmath>

namespace fathom::model {

double relative_error_percent(uint64_t model_cycles, uint64_t published_cycles) {
  if (published_cycles == 0) return 0.0;  // the loader rejects 0; never divide by it
  return (static_cast<double>(model_cycles) - static_cast<double>(published_cycles)) /
         static_cast<double>(published_cycles) * 100.0;
}

std::optional<double> median_absolute(std::vector<double> errors_percent) {
  if (errors_percent.empty()) return std::nullopt;
  for (double& e : errors_percent) e = std::fabs(e);
  std::sort(errors_percent.begin(), errors_percent.end());
  const size_t n = errors_percent.size();
  if (n % 2 == 1) return errors_percent[n / 2];
  return (errors_percent[n / 2 - 1] + errors_percent[n / 2]) / 2.0;
}

}  // namespace fathom::model
