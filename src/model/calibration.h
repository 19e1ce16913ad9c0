#pragma once
// Calibration: the timing model's cycle counts set against published measurements on silicon.
// Pure data and arithmetic; `fathom calibrate` fills and prints it.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fathom::model {

// One published figure: `cycles` for `operation` on the reference device.
struct ReferenceMeasurement {
  std::string operation;  // an operation name of the calibration suite, "mlkem512_keygen"
  uint64_t cycles = 0;    // > 0
  // Published share of `cycles` spent in the reference set's hashing group (a fraction in
  // [0, 1]; pqm4's "hashing" share). Present for every measurement when hashing_group is set.
  std::optional<double> hashing_share;
};

// A set of published measurements and where they come from (firmware/calibration/*.toml).
struct ReferenceSet {
  std::string name;        // "pqm4-stm32l4r5"
  std::string source;      // who published the numbers
  std::string device;      // chip, core, clock, memory system
  std::string compiler;    // "arm-none-eabi-gcc 11.3"
  std::vector<std::string> cflags;
  std::string statistic;   // "mean of 10 runs"
  std::string suite;       // the suite that builds the calibration images
  std::string board;       // the simulated board to compare on
  std::vector<std::string> notes;  // caveats printed with the table
  // A primitive group (the calibration library's [primitive_groups]) whose code differs between
  // the measured binary and the calibration image ("SHA-3/Keccak" for pqm4, which links an
  // assembly Keccak): calibrate shows its share of the model's cycles and the cycles outside
  // it, so the error can be read apart from the code difference. "" if none.
  std::string code_differs_in;
  // The primitive group (the calibration library's [primitive_groups]) that the published
  // hashing shares cover ("FIPS 202" for pqm4: every function of fips202.c), and where the
  // shares come from. The like-for-like view compares the cycles outside it. "" if none.
  std::string hashing_group;
  std::string hashing_source;
  std::vector<ReferenceMeasurement> measurements;  // in file order, unique operations
};

// One row of the calibration table.
struct CalibrationRow {
  std::string operation;
  uint64_t published_cycles = 0;
  std::optional<uint64_t> model_cycles_median;  // absent if the operation produced no timing
  uint32_t model_runs = 0;                      // number of timed runs behind the median
  // (model - published) / published × 100; absent without a model figure.
  std::optional<double> error_percent;
};

struct CalibrationTable {
  std::vector<CalibrationRow> rows;  // in the reference set's order
  // Median of |error_percent| over rows that have one; absent if none has.
  std::optional<double> median_absolute_error_percent;
};

// One row of the like-for-like view: the cycles outside the hashing group, the model's
// (model total × (1 − the model's share of the group)) against the published ones (published
// total × (1 − the published hashing share)).
struct LikeForLikeRow {
  std::string operation;
  uint64_t published_cycles = 0;
  double published_share = 0;    // fraction
  double published_outside = 0;  // published_cycles × (1 − published_share)
  std::optional<uint64_t> model_cycles_median;
  std::optional<double> model_share;    // fraction of the model's cycles under the group
  std::optional<double> model_outside;  // model_cycles_median × (1 − model_share)
  std::optional<double> error_percent;  // (model_outside − published_outside) / published_outside
};

struct LikeForLikeTable {
  std::vector<LikeForLikeRow> rows;  // the measurements that have a hashing share, in order
  std::optional<double> median_absolute_error_percent;
  std::optional<double> max_absolute_error_percent;
};

// Builds the like-for-like view; `model(operation)` gives {median cycles, share of the
// hashing group (fraction)} or nullopt when the operation has no timing or no share.
template <typename Lookup>
LikeForLikeTable make_like_for_like_table(const ReferenceSet& reference, Lookup model);

// Signed relative error of `model_cycles` against `published_cycles` (> 0), in percent.
double relative_error_percent(uint64_t model_cycles, uint64_t published_cycles);

// Builds the table from the published figures and the model's medians, given as a lookup
// `model_median(operation)` → {median cycles, runs} (nullopt if the operation has no timing).
template <typename Lookup>
CalibrationTable make_calibration_table(const ReferenceSet& reference, Lookup model_median);

// The median of the absolute values of `errors_percent`; nullopt for an empty list. With an
// even count, the mean of the two middle values.
std::optional<double> median_absolute(std::vector<double> errors_percent);

template <typename Lookup>
CalibrationTable make_calibration_table(const ReferenceSet& reference, Lookup model_median) {
  CalibrationTable table;
  std::vector<double> errors;
  for (const auto& m : reference.measurements) {
    CalibrationRow row;
    row.operation = m.operation;
    row.published_cycles = m.cycles;
    if (auto got = model_median(m.operation)) {
      row.model_cycles_median = got->first;
      row.model_runs = got->second;
      row.error_percent = relative_error_percent(got->first, m.cycles);
      errors.push_back(*row.error_percent);
    }
    table.rows.push_back(std::move(row));
  }
  table.median_absolute_error_percent = median_absolute(std::move(errors));
  return table;
}

template <typename Lookup>
LikeForLikeTable make_like_for_like_table(const ReferenceSet& reference, Lookup model) {
  LikeForLikeTable table;
  std::vector<double> errors;
  for (const auto& m : reference.measurements) {
    if (!m.hashing_share) continue;
    LikeForLikeRow row;
    row.operation = m.operation;
    row.published_cycles = m.cycles;
    row.published_share = *m.hashing_share;
    row.published_outside = static_cast<double>(m.cycles) * (1.0 - *m.hashing_share);
    if (auto got = model(m.operation)) {
      row.model_cycles_median = got->first;
      row.model_share = got->second;
      row.model_outside = static_cast<double>(got->first) * (1.0 - got->second);
      if (row.published_outside > 0) {
        row.error_percent = (*row.model_outside - row.published_outside) /
                            row.published_outside * 100.0;
        errors.push_back(*row.error_percent);
      }
    }
    table.rows.push_back(std::move(row));
  }
  for (double e : errors)
    if (!table.max_absolute_error_percent || std::fabs(e) > *table.max_absolute_error_percent)
      table.max_absolute_error_percent = std::fabs(e);
  table.median_absolute_error_percent = median_absolute(std::move(errors));
  return table;
}

}  // namespace fathom::model
