#pragma once
// Google Benchmark JSON (shared/reference/formats.md, "Google Benchmark JSON"), so that
// compare.py and CI benchmark dashboards read fathom results as they read google/benchmark's.
//
// One benchmark per image × operation, named "<configuration>/<operation>" ("@<board>" is
// appended when the run has several boards). Time is the median cycle count at the image's
// board clock, in ns (real_time = cpu_time); the raw figures are counters: cycles,
// instructions, peak_stack_bytes, heap_peak_bytes (each present only when measured).
// An operation without timing (KAT failed or not run, image fault), and an image that stopped
// before any operation, gets no entry: google/benchmark writes a failed benchmark with
// error_occurred and a real_time of 0, which compare.py pairs by name and compares like a
// measurement (a "+200%" change). Each is recorded in the context's "errors" field instead, one
// "<name>: <why>" per line. An operation that has no timing by design (a library gate,
// OperationResult::not_timed) is named in "not_timed".
//
// The context describes one machine, the simulated board, as google/benchmark describes the
// machine that ran the benchmarks: num_cpus 1 and mhz_per_cpu its clock (the first image's board
// when a run has several; each entry's time uses its own board's clock). The host that ran the
// simulator is in host_name and host_num_cpus.
#include <cstdint>
#include <string>

#include "report/writer.h"

namespace fathom::report {

// The host facts of google/benchmark's "context" block, which a RunResult does not hold.
struct GbenchContext {
  std::string date;  // ISO 8601, "2024-05-01T12:00:00+00:00"
  std::string host_name;
  uint32_t host_num_cpus = 1;  // the host's, not the simulated board's
};

// This host's context, taken once per process (the first call fixes the date), so that every
// gbench output of one fathom invocation is the same bytes.
const GbenchContext& host_gbench_context();

class GbenchWriter final : public Writer {
 public:
  explicit GbenchWriter(GbenchContext context = host_gbench_context())
      : context_(std::move(context)) {}
  void write(const model::RunResult& run, std::ostream& out) const override;

 private:
  GbenchContext context_;
};

}  // namespace fathom::report
