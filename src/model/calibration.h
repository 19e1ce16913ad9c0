#pragma once
// Calibration: the timing model's cycle counts set against published measurements on silicon.
// Pure data and arithmetic; `fathom calibrate` fills and prints it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fathom::model {

// One published figure: `cycles` for `operation` on the reference device.
struct ReferenceMeasurement {
  std::string operation;  // an operation name of the calibration suite, "mlkem512_keygen"
  uint64_t cycles = 0;    // > 0
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

}  // namespace fathom::model
