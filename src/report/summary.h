#pragma once
// The flat view of a RunResult that the table, markdown and csv writers print: one row per
// (image, operation) with the derived figures (time at the board clock, ratio to the baseline
// configuration), plus the image-level problems to list under a table.
#include <optional>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::report {

enum class FastestMark { kNone, kFastest, kTied };

// "fastest", "tied" or "" (the word the JSON results use).
std::string fastest_mark_name(FastestMark mark);

struct SummaryRow {
  const model::ImageResult* image = nullptr;
  // Null for an image that has no operations at all (e.g. its build failed); such a row
  // carries only the image's error.
  const model::OperationResult* operation = nullptr;
  // True only if the KAT passed and there are cycle statistics; every measured figure
  // (cycles, instructions, time, memory, ratio) is printed only when this is true, memory
  // figures only when the KAT passed.
  bool timed = false;
  // Timed by instructions only (OperationResult::has_instructions_only): cycles, time, ratio
  // and the fastest mark are unavailable; printed as "n/a" with kCyclesUnavailableNote.
  bool cycles_unavailable = false;
  bool kat_passed = false;
  std::optional<double> time_us;  // median cycles / provenance.clock_hz, in microseconds
  // This row's median cycles ÷ the baseline's for the same operation and board. The baseline
  // is the configuration of the first image in the run. Set only when both are timed.
  std::optional<double> ratio;
  // Among the timed rows of the same operation on the same board, when there are at least two:
  // kFastest for the row with the lowest median cycles when every other median is more than
  // model::kNoiseThresholdPercent above it; kTied for every row within that threshold of the
  // lowest median when there are two or more such rows (none of them is faster within the
  // noise). The matrix table marks both.
  FastestMark fastest = FastestMark::kNone;
};

enum class RowOrder {
  kImage,      // images in run order, operations in image order (csv)
  kOperation,  // grouped by board, then operation (first appearance), then configuration
};

struct Summary {
  std::vector<SummaryRow> rows;
  size_t configuration_count = 0;  // distinct configuration names
  size_t board_count = 0;          // distinct board names
  // One line per image-level problem ("mbedtls-x on sim-m33: fault hardfault at 0x00001234
  // in foo: ...") and per failed KAT, in image order.
  std::vector<std::string> problems;
};

// The footnote of every report that prints a row with cycles unavailable.
inline constexpr const char* kCyclesUnavailableNote =
    "cycles unavailable on this target (QEMU models no cycle counter)";

// Whether any row is timed by instructions only.
bool any_cycles_unavailable(const Summary& summary);

Summary summarize_run(const model::RunResult& run, RowOrder order);

// "pass", "FAIL: v1, v2" (or "FAIL" when no vector failed by name), "not run".
std::string kat_text(const model::OperationResult& op);

// Why `row` has no timing ("" when it is timed and has no error); "not timed: <why>" for an
// operation that has no timing by design (OperationResult::not_timed).
std::string row_note(const SummaryRow& row);

// "1,234,567".
std::string with_thousands(uint64_t value);

// A count held as a double (a median, a share of one), rounded, with thousands separators;
// "-" when it is negative or not finite.
std::string rounded_with_thousands(double value);

// Shortest exact text of a statistic: "1234" for integral values, else e.g. "1234.5".
std::string plain_number(double value);

}  // namespace fathom::report
