// `fathom calibrate`: runs the calibration suite on the simulator and prints the timing model's
// cycle counts against published measurements on silicon, with the error per operation and
// the median absolute error: first like for like (the cycles outside the reference's hashing
// group, when it publishes hashing shares), then the totals. It reports a figure and never
// gates: the exit code is 0 unless the run itself fails (build error, fault, failed KAT, an
// operation without a timing).
#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <utility>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/suite_session.h"
#include "model/calibration.h"
#include "pipeline/suite_runner.h"
#include "suite/reference_loader.h"
#include "suite/suite_loader.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::cli {
namespace {

struct CalibrateFlags {
  std::string reference = "pqm4_stm32l4r5";
  std::string board;  // "" = the reference's board
  int64_t runs = -1;
};

// A name in firmware/calibration/ ("pqm4_stm32l4r5") or a path to a .toml file.
std::filesystem::path resolve_reference(const std::string& name_or_path) {
  const std::filesystem::path p(name_or_path);
  if (p.extension() == ".toml" || name_or_path.find('/') != std::string::npos) return p;
  return repository_root() / "firmware" / "calibration" / (name_or_path + ".toml");
}

std::string with_commas(uint64_t v) {
  std::string digits = std::to_string(v), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

void print_cells(const std::vector<std::string>& header,
                 const std::vector<std::vector<std::string>>& cells) {
  std::vector<size_t> width(header.size());
  for (size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : cells) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    std::string s = fmt::format("{:<{}}", r[0], width[0]);
    for (size_t c = 1; c < r.size(); ++c) s += fmt::format("  {:>{}}", r[c], width[c]);
    fmt::print("{}\n", s);
  };
  line(header);
  std::vector<std::string> rule;
  for (size_t w : width) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& r : cells) line(r);
  fmt::print("\n");
}

std::optional<double> share_of(const model::ImageResult& image, const std::string& operation,
                               const std::string& group) {
  for (const auto& o : image.operations)
    if (o.operation == operation)
      if (auto it = o.primitive_share.find(group); it != o.primitive_share.end())
        return it->second;
  return std::nullopt;
}

// The headline view: cycles outside the hashing group, where both binaries run the same
// source (docs/TIMING.md "Calibration").
void print_like_for_like(const model::ReferenceSet& ref, const model::LikeForLikeTable& table) {
  const std::string& g = ref.hashing_group;
  fmt::print("like for like: cycles outside {} (model total x (1 - model {} share) against "
             "published total x (1 - published hashing share); shares: {})\n",
             g, g, ref.hashing_source.empty() ? ref.source : ref.hashing_source);
  const std::vector<std::string> header = {
      "operation", "model [cycles]", "model " + g + " share [%]", "model outside [cycles]",
      "published [cycles]", "published hashing [%]", "published outside [cycles]",
      "error [%]"};
  std::vector<std::vector<std::string>> cells;
  auto rounded = [](double v) { return with_commas(static_cast<uint64_t>(std::llround(v))); };
  for (const auto& row : table.rows)
    cells.push_back(
        {row.operation,
         row.model_cycles_median ? with_commas(*row.model_cycles_median) : "-",
         row.model_share ? fmt::format("{:.2f}", 100.0 * *row.model_share) : "-",
         row.model_outside ? rounded(*row.model_outside) : "-",
         with_commas(row.published_cycles), fmt::format("{:.1f}", 100.0 * row.published_share),
         rounded(row.published_outside),
         row.error_percent ? fmt::format("{:+.2f}", *row.error_percent) : "-"});
  print_cells(header, cells);
  if (table.median_absolute_error_percent)
    fmt::print("like-for-like median absolute error: {:.2f} %, max absolute error: {:.2f} % "
               "over {} operations\n\n",
               *table.median_absolute_error_percent, *table.max_absolute_error_percent,
               std::count_if(table.rows.begin(), table.rows.end(),
                             [](const auto& r) { return r.error_percent.has_value(); }));
  else
    fmt::print("like-for-like median absolute error: - (no operation has a model share)\n\n");
}

void print_table(const model::ReferenceSet& ref, const model::ImageResult& image,
                 const model::CalibrationTable& table) {
  const auto& p = image.provenance;
  fmt::print("calibration: suite {} on {} ({}, {} Hz)\n", ref.suite, image.board, p.core,
             p.clock_hz);
  fmt::print("timing model: {}\n", p.timing_model.empty() ? "(not reported)" : p.timing_model);
  fmt::print("compiler: {}; cflags: {}\n", p.compiler, fmt::join(p.cflags, " "));
  fmt::print("reference: {} ({})\n", ref.name, ref.source);
  fmt::print("  device: {}\n", ref.device);
  if (!ref.compiler.empty() || !ref.statistic.empty())
    fmt::print("  compiler: {}; cflags: {}; statistic: {}\n", ref.compiler,
               fmt::join(ref.cflags, " "), ref.statistic);
  fmt::print("\n");

  if (!ref.hashing_group.empty()) {
    print_like_for_like(ref, model::make_like_for_like_table(
                                 ref, [&](const std::string& op)
                                          -> std::optional<std::pair<uint64_t, double>> {
                                   for (const auto& row : table.rows)
                                     if (row.operation == op && row.model_cycles_median)
                                       if (auto share = share_of(image, op, ref.hashing_group))
                                         return std::pair{*row.model_cycles_median, *share};
                                   return std::nullopt;
                                 }));
    fmt::print("total cycles (compares different code where the binaries differ: {})\n",
               ref.code_differs_in.empty() ? ref.hashing_group : ref.code_differs_in);
  }
  std::vector<std::string> header = {"operation", "model median [cycles]",
                                     "published [cycles]", "error [%]", "n"};
  const std::string& group = ref.code_differs_in;
  if (!group.empty()) {
    header.push_back(group + " share [%]");
    header.push_back("outside " + group + " [cycles]");
  }
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : table.rows) {
    cells.push_back({row.operation,
                     row.model_cycles_median ? with_commas(*row.model_cycles_median) : "-",
                     with_commas(row.published_cycles),
                     row.error_percent ? fmt::format("{:+.2f}", *row.error_percent) : "-",
                     std::to_string(row.model_runs)});
    if (group.empty()) continue;
    // The share is of the operation's cycles over all its executions, the same code each time.
    std::optional<double> share;
    for (const auto& o : image.operations)
      if (o.operation == row.operation)
        if (auto it = o.primitive_share.find(group); it != o.primitive_share.end())
          share = it->second;
    cells.back().push_back(share ? fmt::format("{:.2f}", 100.0 * *share) : "-");
    cells.back().push_back(share && row.model_cycles_median
                               ? with_commas(static_cast<uint64_t>(std::llround(
                                     (1.0 - *share) * static_cast<double>(*row.model_cycles_median))))
                               : "-");
  }
  print_cells(header, cells);
  if (table.median_absolute_error_percent)
    fmt::print("median absolute error: {:.2f} % over {} operations\n",
               *table.median_absolute_error_percent,
               std::count_if(table.rows.begin(), table.rows.end(),
                             [](const auto& r) { return r.error_percent.has_value(); }));
  else
    fmt::print("median absolute error: - (no operation produced a timing)\n");
  for (const auto& note : ref.notes) fmt::print("note: {}\n", note);
}

int calibrate(const CalibrateFlags& flags) {
  auto ref = suite::load_reference_set(resolve_reference(flags.reference));
  if (!ref) throw util::FatalError(ref.error().message, kExitUsage);
  const model::Suite suite_value = load_suite_or_throw(ref->suite);
  const model::Suite* suite = &suite_value;
  // --board runs the comparison on another board (e.g. sim-m4-unrefined: the same M4 with
  // timing_refinements off); the reference's board must still be one of the suite's.
  const std::string board = flags.board.empty() ? ref->board : flags.board;
  if (std::find(suite->boards.begin(), suite->boards.end(), ref->board) == suite->boards.end())
    throw util::FatalError(
        fmt::format("reference '{}' compares on board '{}', but suite '{}' does not run on it; "
                    "add the board to the suite",
                    ref->name, ref->board, suite->name),
        kExitUsage);

  pipeline::RunOptions options;
  for (const auto& m : ref->measurements) options.operations.push_back(m.operation);
  if (flags.runs > 0) options.runs = static_cast<uint32_t>(flags.runs);
  if (!flags.board.empty()) options.boards = {flags.board};
  const model::RunResult run_result = run_suite_or_throw(*suite, options);
  const model::RunResult* result = &run_result;

  // The first image on the reference board (the calibration suite has one configuration).
  const model::ImageResult* image = nullptr;
  for (const auto& i : result->images)
    if (i.board == board) {
      image = &i;
      break;
    }
  if (image == nullptr)
    throw util::FatalError(fmt::format("suite '{}' produced no image on board '{}'",
                                       suite->name, board));
  auto table = model::make_calibration_table(
      *ref, [&](const std::string& op) -> std::optional<std::pair<uint64_t, uint32_t>> {
        for (const auto& o : image->operations)
          if (o.operation == op && o.has_timing())
            return std::pair{static_cast<uint64_t>(std::llround(o.cycles->median)),
                             static_cast<uint32_t>(o.cycle_samples.size())};
        return std::nullopt;
      });
  print_table(*ref, *image, table);
  std::cout.flush();

  bool failed = !image->completed || !image->error.empty();
  if (!image->error.empty())
    fmt::print(stderr, "fathom: {} on {}: {}\n", image->configuration, image->board,
               image->error);
  for (const auto& row : table.rows)
    if (!row.model_cycles_median) {
      failed = true;
      fmt::print(stderr, "fathom: operation '{}' produced no timing (KAT failure or fault)\n",
                 row.operation);
    }
  return failed ? kExitFailure : kExitOk;
}

}  // namespace

void register_calibrate_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<CalibrateFlags>();
  auto* cmd = app.add_subcommand(
      "calibrate",
      "Run the calibration suite and compare the timing model with published cycle counts");
  cmd->add_option("--reference", flags->reference,
                  "Reference measurements: a name in firmware/calibration/ or a .toml path "
                  "(default: pqm4_stm32l4r5)");
  cmd->add_option("--board", flags->board,
                  "Compare on this board instead of the reference's (e.g. sim-m4-unrefined)");
  cmd->add_option("--runs", flags->runs, "Timed runs per operation (default: the suite's)")
      ->check(CLI::Range(1, 100000));
  cmd->callback([flags, &state] { state.exit_code = calibrate(*flags); });
}

}  // namespace fathom::cli
