#pragma once
// Summary statistics over the timed runs of one operation.
#include <cstdint>
#include <optional>
#include <vector>

namespace fathom::model {

struct Statistics {
  uint64_t count = 0;
  double median = 0;  // mean of the two middle values for an even count
  double p99 = 0;     // nearest-rank 99th percentile
  double mean = 0;
  uint64_t min = 0;
  uint64_t max = 0;
};

// Two medians closer than this, in percent of the lower one, are the same figure within the
// noise that `fathom compare` allows (its default --threshold): neither is faster.
inline constexpr double kNoiseThresholdPercent = 0.5;

// Statistics of `samples`; std::nullopt when there are none.
std::optional<Statistics> summarize(const std::vector<uint64_t>& samples);

}  // namespace fathom::model
