#include <fmt/core.h>

#include <map>
#include <utility>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/suite_session.h"
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

struct Speed {
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  double seconds = 0;
};

std::map<std::pair<std::string, std::string>, Speed> measure(const model::Suite& suite,
                                                             pipeline::RunOptions options,
                                                             sim::HookMode mode) {
  options.sim_hook_mode = mode;
  const model::RunResult result_value = run_suite_or_throw(suite, options);
  const model::RunResult* result = &result_value;
  std::map<std::pair<std::string, std::string>, Speed> out;
  for (const auto& image : result->images) {
    if (image.host_seconds <= 0) {
      fmt::print(stderr, "fathom: {} on {} did not run: {}\n", image.configuration, image.board,
                 image.error);
      continue;
    }
    out[{image.configuration, image.board}] = {image.total_instructions, image.total_cycles,
                                               image.host_seconds};
  }
  return out;
}

// Simulator speed on a suite, per image and in total: target instructions and cycles per host
// second in the measuring mode (a hook per instruction, timing model, exact CYCCNT), next to
// the instruction rate of a block hook that only counts. A figure for the README, not a test.
int bench(const BenchFlags& flags) {
  const model::Suite suite_value = load_suite_or_throw(flags.suite);
  const model::Suite* suite = &suite_value;
  pipeline::RunOptions options;
  if (flags.runs > 0) options.runs = static_cast<uint32_t>(flags.runs);

  const auto exact = measure(*suite, options, sim::HookMode::kPerInstruction);
  const auto block = measure(*suite, options, sim::HookMode::kBlockCountOnly);

  fmt::print("simulator speed on suite '{}' (host wall time of the simulated runs, builds "
             "excluded)\n\n",
             suite->name);
  fmt::print("{:<24} {:<9} {:>14} {:>9} {:>13} {:>13} | {:>9} {:>13}\n", "", "",
             "per-instruction", "hook,", "timing model", "", "block hook,", "count only");
  fmt::print("{:<24} {:<9} {:>14} {:>9} {:>13} {:>13} | {:>9} {:>13}\n", "configuration",
             "board", "instructions", "host [s]", "M instr/s", "M cycles/s", "host [s]",
             "M instr/s");
  Speed total_exact, total_block;
  for (const auto& [key, e] : exact) {
    auto b = block.find(key);
    const Speed bs = b == block.end() ? Speed{} : b->second;
    fmt::print("{:<24} {:<9} {:>14} {:>9.2f} {:>13.1f} {:>13.1f} | {:>9.2f} {:>13.1f}\n",
               key.first, key.second, e.instructions, e.seconds, e.instructions / e.seconds / 1e6,
               e.cycles / e.seconds / 1e6, bs.seconds,
               bs.seconds > 0 ? bs.instructions / bs.seconds / 1e6 : 0.0);
    total_exact.instructions += e.instructions;
    total_exact.cycles += e.cycles;
    total_exact.seconds += e.seconds;
    total_block.instructions += bs.instructions;
    total_block.seconds += bs.seconds;
  }
  if (total_exact.seconds > 0 && total_block.seconds > 0)
    fmt::print("{:<24} {:<9} {:>14} {:>9.2f} {:>13.1f} {:>13.1f} | {:>9.2f} {:>13.1f}\n", "total",
               "", total_exact.instructions, total_exact.seconds,
               total_exact.instructions / total_exact.seconds / 1e6,
               total_exact.cycles / total_exact.seconds / 1e6, total_block.seconds,
               total_block.instructions / total_block.seconds / 1e6);
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
