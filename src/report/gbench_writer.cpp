#include "report/gbench_writer.h"

#include <fmt/core.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "report/summary.h"

namespace fathom::report {
namespace {

using Json = nlohmann::ordered_json;

// Why `op` has no timing, with the failing KAT vectors named.
std::string no_timing_reason(const model::ImageResult& img, const model::OperationResult& op) {
  std::string reason = op.error;
  if (reason.empty()) {
    if (op.kat == model::KatStatus::kFailed)
      reason = "known-answer test failed";
    else if (op.kat == model::KatStatus::kNotRun)
      reason = "known-answer test did not run";
    else if (!img.error.empty())
      reason = img.error;
    else
      reason = "no timed runs";
  }
  std::vector<std::string> failed;
  for (const auto& v : op.kat_vectors)
    if (!v.passed) failed.push_back(v.name);
  if (!failed.empty()) reason += fmt::format(" (failed vectors: {})", fmt::join(failed, ", "));
  return reason;
}

Json entry(const std::string& name, uint64_t iterations, double time_ns) {
  Json out;
  out["name"] = name;
  out["run_name"] = name;
  out["run_type"] = "iteration";
  out["repetitions"] = 1;
  out["repetition_index"] = 0;  // google/benchmark counts repetitions from 0
  out["threads"] = 1;
  out["iterations"] = iterations;
  out["real_time"] = time_ns;
  out["cpu_time"] = time_ns;
  out["time_unit"] = "ns";
  return out;
}

// "a, b" of the distinct non-empty values, in first-seen order.
std::string distinct(const model::RunResult& run, std::string (*field)(const model::ImageResult&)) {
  std::vector<std::string> values;
  for (const auto& img : run.images) {
    std::string value = field(img);
    if (!value.empty() && std::find(values.begin(), values.end(), value) == values.end())
      values.push_back(std::move(value));
  }
  return fmt::format("{}", fmt::join(values, ", "));
}

}  // namespace

const GbenchContext& host_gbench_context() {
  static const GbenchContext context = [] {
    GbenchContext c;
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    std::array<char, 40> date{};
    std::strftime(date.data(), date.size(), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
    c.date = date.data();
    std::array<char, 256> host{};
    if (gethostname(host.data(), host.size() - 1) == 0) c.host_name = host.data();
    c.host_num_cpus = std::max(1u, std::thread::hardware_concurrency());
    return c;
  }();
  return context;
}

void GbenchWriter::write(const model::RunResult& run, std::ostream& out) const {
  std::set<std::string> boards;
  for (const auto& img : run.images) boards.insert(img.board);
  const bool several_boards = boards.size() > 1;

  Json context;
  context["date"] = context_.date;
  context["host_name"] = context_.host_name;
  context["executable"] = "fathom";
  context["num_cpus"] = 1;  // the board: one core
  const uint64_t first_clock_hz = run.images.empty() ? 0 : run.images[0].provenance.clock_hz;
  context["mhz_per_cpu"] = first_clock_hz / 1'000'000;
  context["library_build_type"] = "release";
  context["json_schema_version"] = 1;
  context["board"] = distinct(run, [](const model::ImageResult& i) { return i.board; });
  context["timing_model"] =
      distinct(run, [](const model::ImageResult& i) { return i.provenance.timing_model; });
  context["suite"] = run.suite;
  context["host_num_cpus"] = std::to_string(context_.host_num_cpus);  // context extras: strings

  Json benchmarks = Json::array();
  std::map<std::string, int> seen;  // keeps names unique should an image appear twice
  const auto unique_name = [&](std::string name) {
    const int n = ++seen[name];
    return n == 1 ? name : fmt::format("{}#{}", name, n);
  };
  std::vector<std::string> not_timed;  // operations without a figure by design: no entry
  std::vector<std::string> errors;     // "<name>: <why>" of what has no entry because it failed
  const auto error_entry = [&](const std::string& name, const std::string& message) {
    errors.push_back(fmt::format("{}: {}", name, message));
  };
  for (const auto& img : run.images) {
    const std::string suffix = several_boards ? "@" + img.board : "";
    if (img.operations.empty() && (!img.completed || !img.error.empty())) {
      error_entry(unique_name(img.configuration + suffix),
                  img.error.empty() ? "image did not complete" : img.error);
      continue;
    }
    const uint64_t clock_hz = img.provenance.clock_hz;
    for (const auto& op : img.operations) {
      if (!op.not_timed.empty() && op.error.empty()) {
        not_timed.push_back(img.configuration + "/" + op.operation + suffix);
        continue;
      }
      const std::string name = unique_name(img.configuration + "/" + op.operation + suffix);
      if (op.has_instructions_only()) {
        // Google Benchmark entries need a time, which needs cycles.
        error_entry(name, fmt::format("{}; median {} instructions",
                                      kCyclesUnavailableNote,
                                      plain_number(op.instructions->median)));
        continue;
      }
      if (!op.has_timing()) {
        error_entry(name, no_timing_reason(img, op));
        continue;
      }
      const double time_ns =
          clock_hz == 0 ? NAN : op.cycles->median * 1e9 / static_cast<double>(clock_hz);
      if (!std::isfinite(time_ns) || !std::isfinite(op.cycles->median)) {
        error_entry(name, fmt::format("board {} has no clock frequency to turn cycles into time",
                                      img.board));
        continue;
      }
      Json b = entry(name, op.cycles->count, time_ns);
      b["cycles"] = op.cycles->median;
      if (op.instructions && std::isfinite(op.instructions->median))
        b["instructions"] = op.instructions->median;
      if (op.peak_stack_bytes) b["peak_stack_bytes"] = *op.peak_stack_bytes;
      if (op.heap_peak_bytes) b["heap_peak_bytes"] = *op.heap_peak_bytes;
      benchmarks.push_back(std::move(b));
    }
  }

  // A consumer pairs entries by name and compares their times: an operation that has no timing
  // by design (a library gate, OperationResult::not_timed) gets no entry; it is named here.
  if (!not_timed.empty()) context["not_timed"] = fmt::format("{}", fmt::join(not_timed, ", "));
  if (!errors.empty()) context["errors"] = fmt::format("{}", fmt::join(errors, "\n"));

  Json doc;
  doc["context"] = std::move(context);
  doc["benchmarks"] = std::move(benchmarks);
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::report
