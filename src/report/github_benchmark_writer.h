#pragma once
// github-action-benchmark's `customSmallerIsBetter` input
// (benchmark-action/github-action-benchmark, `tool: 'customSmallerIsBetter'`), so that a CI
// workflow charts fathom's cycles per commit and alerts on a regression: a JSON array of {"name",
// "unit", "value", "range"?, "extra"?}.
//
// One entry per image × operation with cycles, named "<configuration>/<operation>" ("@<board>"
// appended when the run has several boards, as in report/gbench_writer.h; a name seen twice
// gets "#2"). value = the median cycles of the timed runs, unit "cycles"; range = "MIN to MAX"
// of the timed runs when they differ (absent when every run gave the same cycles); extra = one
// "figure: value" line each for the median instructions, the time at the board clock, peak
// stack, heap peak, the timed runs and the board, where measured.
//
// The action charts every entry it is given and compares values by name, so an entry must be a
// measured cycle count: what has no cycles is left out, never written with a made-up value —
// an operation whose KAT failed or did not run, an image that stopped, an operation that is not
// timed by design (a library gate, OperationResult::not_timed) and one measured by instructions
// only (QEMU: cycles unavailable). A run where nothing has cycles is "[]". The format has no
// place to say so; github_benchmark_left_out names them for the command to print on stderr.
#include <string>
#include <vector>

#include "report/writer.h"

namespace fathom::report {

// "<name>: <why>" for each operation (and each image that stopped before any operation) that
// GithubBenchmarkWriter leaves out, in run order; <name> as an entry would have been named.
std::vector<std::string> github_benchmark_left_out(const model::RunResult& run);

class GithubBenchmarkWriter final : public Writer {
 public:
  void write(const model::RunResult& run, std::ostream& out) const override;
};

}  // namespace fathom::report
