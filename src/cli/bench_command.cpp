#include <fmt/core.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "pipeline/suite_runner.h"
#include "suite/suite_loader.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::cli {
namespace {

struct BenchFlags {
  std::string suite;
  int64_t runs = -1;
};

// Simulator speed on a suite: target instructions and cycles per host second, per image and in
// total. A figure for the README, not a test: nothing here asserts a speed.
int bench(const BenchFlags& flags) {
  auto path = resolve_suite(flags.suite);
  if (!path) throw util::FatalError(path.error().message, kExitUsage);
  auto suite = suite::load_suite(*path);
  if (!suite) throw util::FatalError(suite.error().message, kExitUsage);
  pipeline::RunOptions options;
  if (flags.runs > 0) options.runs = static_cast<uint32_t>(flags.runs);
  options.firmware_dir = repository_root() / "firmware";
  auto root = build_root();
  if (!root) throw util::FatalError(root.error().message);
  options.build_root = *root;
  util::Progress progress;
  auto result = pipeline::run_suite(*suite, options, progress);
  progress.clear();
  if (!result) throw util::FatalError(result.error().message);

  fmt::print("simulator speed on suite '{}' (host wall time of the simulated runs only, not the "
             "builds)\n\n",
             suite->name);
  fmt::print("{:<24} {:<9} {:>16} {:>16} {:>9} {:>14} {:>14}\n", "configuration", "board",
             "instructions", "cycles", "host [s]", "M instr/s", "M cycles/s");
  uint64_t instructions = 0, cycles = 0;
  double seconds = 0;
  for (const auto& image : result->images) {
    if (image.host_seconds <= 0) {
      fmt::print("{:<24} {:<9} did not run: {}\n", image.configuration, image.board, image.error);
      continue;
    }
    fmt::print("{:<24} {:<9} {:>16} {:>16} {:>9.2f} {:>14.1f} {:>14.1f}\n", image.configuration,
               image.board, image.total_instructions, image.total_cycles, image.host_seconds,
               image.total_instructions / image.host_seconds / 1e6,
               image.total_cycles / image.host_seconds / 1e6);
    instructions += image.total_instructions;
    cycles += image.total_cycles;
    seconds += image.host_seconds;
  }
  if (seconds > 0)
    fmt::print("{:<24} {:<9} {:>16} {:>16} {:>9.2f} {:>14.1f} {:>14.1f}\n", "total", "",
               instructions, cycles, seconds, instructions / seconds / 1e6, cycles / seconds / 1e6);
  return kExitOk;
}

}  // namespace

void register_bench_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<BenchFlags>();
  auto* cmd = app.add_subcommand("bench", "Report simulator speed (instructions and cycles per "
                                          "host second) on a suite");
  cmd->add_option("suite", flags->suite, "Suite name or path (default: default)");
  cmd->add_option("--runs", flags->runs, "Timed runs per operation (default: the suite's)")
      ->check(CLI::Range(1, 100000));
  cmd->callback([flags, &state] { state.exit_code = bench(*flags); });
}

}  // namespace fathom::cli
