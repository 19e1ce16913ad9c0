#include "report/github_benchmark_writer.h"

#include <fmt/core.h>

#include <cmath>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "report/summary.h"

namespace fathom::report {
namespace {

using Json = nlohmann::ordered_json;

bool charted(const model::OperationResult& op) {
  return op.has_timing() && std::isfinite(op.cycles->median);
}

// Why `op` of `img` has no entry (not charted(op)).
std::string left_out_reason(const model::ImageResult& img, const model::OperationResult& op) {
  if (op.kat == model::KatStatus::kFailed) return "known-answer test failed";
  if (op.kat == model::KatStatus::kNotRun)
    return !op.error.empty()    ? op.error
           : !img.error.empty() ? img.error
                                : "known-answer test did not run";
  if (!op.not_timed.empty()) return "not timed: " + op.not_timed;
  if (op.has_instructions_only()) return kCyclesUnavailableNote;
  return op.error.empty() ? "no cycles measured" : op.error;
}

// Calls `visit(name, image, operation)` for every operation in run order, with the name its
// entry has ("<configuration>/<operation>", "@<board>" with several boards, "#2" when seen
// again), and `visit(name, image, nullptr)` for an image that stopped before any operation.
void for_each_entry(const model::RunResult& run,
                    const std::function<void(const std::string&, const model::ImageResult&,
                                             const model::OperationResult*)>& visit) {
  std::set<std::string> boards;
  for (const auto& img : run.images) boards.insert(img.board);
  const bool several_boards = boards.size() > 1;
  std::map<std::string, int> seen;  // keeps names unique should an image appear twice
  for (const auto& img : run.images) {
    const std::string suffix = several_boards ? "@" + img.board : "";
    if (img.operations.empty() && (!img.completed || !img.error.empty()))
      visit(img.configuration + suffix, img, nullptr);
    for (const auto& op : img.operations) {
      std::string name = img.configuration + "/" + op.operation + suffix;
      if (const int n = ++seen[name]; n > 1) name += fmt::format("#{}", n);
      visit(name, img, &op);
    }
  }
}

// The tooltip lines of `op` (charted) in `img`: what the value does not say.
std::string extra_text(const model::ImageResult& img, const model::OperationResult& op) {
  std::vector<std::string> lines;
  if (op.instructions && std::isfinite(op.instructions->median))
    lines.push_back(
        fmt::format("instructions: {}", rounded_with_thousands(op.instructions->median)));
  const uint64_t clock_hz = img.provenance.clock_hz;
  if (clock_hz != 0)
    lines.push_back(fmt::format("time: {:.2f} µs at {} MHz",
                                op.cycles->median * 1e6 / static_cast<double>(clock_hz),
                                plain_number(static_cast<double>(clock_hz) / 1e6)));
  if (op.peak_stack_bytes)
    lines.push_back(fmt::format("peak stack: {} bytes", with_thousands(*op.peak_stack_bytes)));
  if (op.heap_peak_bytes)
    lines.push_back(fmt::format("heap peak: {} bytes", with_thousands(*op.heap_peak_bytes)));
  lines.push_back(fmt::format("timed runs: {}", op.cycles->count));
  lines.push_back(fmt::format("board: {}", img.board));
  std::string out;
  for (const auto& line : lines) out += (out.empty() ? "" : "\n") + line;
  return out;
}

}  // namespace

std::vector<std::string> github_benchmark_left_out(const model::RunResult& run) {
  std::vector<std::string> out;
  for_each_entry(run, [&](const std::string& name, const model::ImageResult& img,
                          const model::OperationResult* op) {
    if (!op)
      out.push_back(
          fmt::format("{}: {}", name, img.error.empty() ? "image did not complete" : img.error));
    else if (!charted(*op))
      out.push_back(fmt::format("{}: {}", name, left_out_reason(img, *op)));
  });
  return out;
}

void GithubBenchmarkWriter::write(const model::RunResult& run, std::ostream& out) const {
  Json entries = Json::array();
  for_each_entry(run, [&](const std::string& name, const model::ImageResult& img,
                          const model::OperationResult* op) {
    // Cycles or nothing: no made-up value for what has none (github_benchmark_left_out).
    if (!op || !charted(*op)) return;
    Json entry;
    entry["name"] = name;
    entry["unit"] = "cycles";
    entry["value"] = op->cycles->median;
    if (op->cycles->max > op->cycles->min)
      entry["range"] = fmt::format("{} to {}", op->cycles->min, op->cycles->max);
    entry["extra"] = extra_text(img, *op);
    entries.push_back(std::move(entry));
  });
  out << entries.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::report
