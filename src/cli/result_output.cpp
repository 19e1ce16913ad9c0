#include "cli/result_output.h"

#include <fmt/core.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include <unistd.h>

#include "cli/cli.h"
#include "cli/history_database.h"
#include "cli/output_directory.h"
#include "history/run_store.h"
#include "report/github_benchmark_writer.h"
#include "report/writer.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/terminal.h"

namespace fathom::cli {
namespace {

void write_file(const std::filesystem::path& path, const report::Writer& writer,
                const model::RunResult& result) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  writer.write(result, out);
  if (!out) throw util::FatalError(fmt::format("cannot write '{}'", path.string()));
}

// Stores `result` in the run history. Never fails the command: the results are already
// printed and written, so a history problem is a warning on stderr.
void store_history(const ResultOutput& output, const model::RunResult& result) {
  try {
    history::RunStore store = open_history_or_throw(output.db, history::RunStore::Access::kCreate);
    auto id = store.store(result, history::current_run_context(output.name));
    if (!id) {
      fmt::print(stderr, "fathom: warning: run not stored in the history: {}\n",
                 id.error().message);
      return;
    }
    if (util::notes_enabled())
      fmt::print(stderr, "fathom: stored as run {} in {}\n", *id, store.path().string());
  } catch (const util::FatalError& e) {
    fmt::print(stderr, "fathom: warning: run not stored in the history: {}\n", e.what());
  }
}

}  // namespace

void add_wide_flag(CLI::App& cmd, bool& wide) {
  cmd.add_flag("--wide", wide,
               "Table: every column (cycle statistics, instructions, allocations, primitive "
               "share) and whole names; default: the compact set, fitted to the terminal");
}

int finish_run(const model::RunResult& result, const ResultOutput& output) {
  report::TableOptions table;
  table.wide = output.wide;
  table.width = util::terminal_columns(STDOUT_FILENO);
  auto writer = report::make_writer(output.format, table);
  if (!writer) throw util::FatalError(writer.error().message, kExitUsage);
  // Results are written before anything else can go wrong: nothing measured is lost.
  if (!output.out_dir.empty()) {
    auto made = make_output_directory(output.out_dir);
    if (!made)
      throw util::FatalError(made.error().message,
                             made.error().is_usage ? kExitUsage : kExitFailure);
    auto json = report::make_writer("json");
    write_file(std::filesystem::path(output.out_dir) / "results.json", **json, result);
    // A file has no terminal: its table keeps whole names and every column.
    if (output.format != "json")
      write_file(std::filesystem::path(output.out_dir) / ("results." + output.format),
                 **report::make_writer(output.format, report::TableOptions{true, 0}), result);
  }
  (*writer)->write(result, std::cout);
  std::cout.flush();
  // The format holds measured cycles only: say what it left out (report/github_benchmark_writer.h).
  if (output.format == "github-benchmark" && util::notes_enabled())
    for (const auto& line : report::github_benchmark_left_out(result))
      fmt::print(stderr, "fathom: not in the github-benchmark output (no cycles): {}\n", line);
  if (!output.no_history) store_history(output, result);
  // The harness's and the simulator's memory figures disagree: one is wrong (docs/PROFILER.md).
  for (const auto& img : result.images)
    for (const auto& op : img.operations)
      if (!op.memory_mismatch.empty())
        fmt::print(stderr, "fathom: error: {} on {}, {}: {}\n", img.configuration, img.board,
                   op.operation, op.memory_mismatch);
  return result.all_passed() ? kExitOk : kExitFailure;
}

}  // namespace fathom::cli
