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

// How far a board's timed runs spread (interrupts, bus contention, flash cache state): robust
// figures that one outlier cannot move much. The harness discards warm-up runs before any
// sample is taken (RunParameters::warmup), so they never enter these.
struct Spread {
  double q1 = 0;      // 25th percentile (linear interpolation between closest ranks)
  double q3 = 0;      // 75th percentile (likewise)
  double iqr = 0;     // q3 - q1
  double mad = 0;     // median absolute deviation from the median
  double median = 0;  // as Statistics::median
  // mad / median, 0 when the median is 0: the run-to-run noise as a fraction of the figure.
  double relative_mad() const { return median > 0 ? mad / median : 0; }
};

// Spread of `samples`; std::nullopt when there are none (one sample: all zero).
std::optional<Spread> spread(const std::vector<uint64_t>& samples);

}  // namespace fathom::model
