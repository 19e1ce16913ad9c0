#include <fmt/core.h>

#include <filesystem>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/suite_session.h"
#include "elf/elf_image.h"
#include "pipeline/suite_runner.h"
#include "profile/call_tracker.h"
#include "profile/tracker_options.h"
#include "target/sim/sim_target.h"
#include "suite/suite_loader.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::cli {
namespace {

struct BenchFlags {
  std::string suite;
  std::vector<std::string> configurations;
  std::vector<std::string> operations;
  int64_t runs = -1;
  int64_t rounds = 3;
};

struct Speed {
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  double seconds = 0;
  double rate() const { return seconds > 0 ? instructions / seconds / 1e6 : 0.0; }
};

using Key = std::pair<std::string, std::string>;  // configuration, board

// One pass of the suite with the simulator in `hooks` (with `profiled`, a call tracker
// watching each image, as `fathom profile` attaches it); per image the best (least) host time
// over the rounds so far is kept in `best`, since host noise only ever adds time.
void measure(const model::Suite& suite, pipeline::RunOptions options,
             target::SimSettings::Hooks hooks, bool profiled, std::map<Key, Speed>& best) {
  options.target.kind = model::TargetKind::kSim;  // bench measures the simulator itself
  options.target.sim.hooks = hooks;
  std::vector<std::unique_ptr<profile::CallTracker>> trackers;  // outlive the runs
  if (profiled)
    options.target_for_image = [&trackers, &options](const model::Board&,
                                                     const elf::ElfImage& elf,
                                                     const std::filesystem::path&)
        -> util::Result<std::unique_ptr<target::Target>> {
      trackers.push_back(
          std::make_unique<profile::CallTracker>(profile::tracker_options_for(elf)));
      return std::make_unique<target::SimTarget>(
          options.target.sim, std::vector<sim::ExecutionObserver*>{trackers.back().get()});
    };
  const model::RunResult result = run_suite_or_throw(suite, options);
  for (const auto& image : result.images) {
    if (image.host_seconds <= 0) {
      fmt::print(stderr, "fathom: {} on {} did not run: {}\n", image.configuration, image.board,
                 image.error);
      continue;
    }
    auto [it, inserted] = best.try_emplace({image.configuration, image.board});
    if (inserted || image.host_seconds < it->second.seconds)
      it->second = {image.total_instructions, image.total_cycles, image.host_seconds};
  }
}

// Simulator speed on a suite, per image: target instructions per host second when only counting
// instructions (a block hook), with the timing model as measurements run (block hooks that
// charge each instruction to the model), with the timing model and the profiler's call tracker
// (as `fathom profile` runs), and with the per-instruction reference hook. The modes alternate
// round by round, so host drift hits them alike; each keeps its best round. A figure for the
// README, not a test.
int bench(const BenchFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite);
  pipeline::RunOptions options;
  options.configurations = flags.configurations;
  options.operations = flags.operations;
  if (flags.runs > 0) options.runs = static_cast<uint32_t>(flags.runs);
  // Simulator speed alone, without the share's call tracker nor the memory cross-check's watch.
  options.target.sim.primitive_share = false;
  options.target.sim.memory_watch = false;

  std::map<Key, Speed> count, model, profiled, reference;
  for (int64_t round = 0; round < flags.rounds; ++round) {
    using Hooks = target::SimSettings::Hooks;
    measure(suite, options, Hooks::kBlockCountOnly, false, count);
    measure(suite, options, Hooks::kBlock, false, model);
    measure(suite, options, Hooks::kBlock, true, profiled);
    measure(suite, options, Hooks::kPerInstruction, false, reference);
  }

  fmt::print("simulator speed on suite '{}', M target instructions per host second (best of {} "
             "alternating rounds; builds excluded)\n\n",
             suite.name, flags.rounds);
  fmt::print("{:<24} {:<9} {:>14} {:>12} {:>12} {:>9} {:>10} {:>9} {:>15}\n", "configuration",
             "board", "instructions", "count only", "timing model", "overhead", "profiled",
             "profiler", "per-instruction");
  Speed total_count, total_model, total_profiled, total_reference;
  auto ratio = [](const Speed& num, const Speed& den) {
    return den.seconds > 0 ? num.seconds / den.seconds : 0.0;
  };
  auto row = [&](const std::string& config, const std::string& board, const Speed& c,
                 const Speed& m, const Speed& p, const Speed& r) {
    fmt::print("{:<24} {:<9} {:>14} {:>12.1f} {:>12.1f} {:>8.2f}x {:>10.1f} {:>8.2f}x {:>15.1f}\n",
               config, board, m.instructions, c.rate(), m.rate(), ratio(m, c), p.rate(),
               ratio(p, m), r.rate());
  };
  auto at = [](const std::map<Key, Speed>& speeds, const Key& key) {
    const auto it = speeds.find(key);
    return it != speeds.end() ? it->second : Speed{};
  };
  for (const auto& [key, m] : model) {
    const Speed c = at(count, key), p = at(profiled, key), r = at(reference, key);
    row(key.first, key.second, c, m, p, r);
    for (auto [total, s] : {std::pair{&total_count, &c}, {&total_model, &m},
                            {&total_profiled, &p}, {&total_reference, &r}}) {
      total->instructions += s->instructions;
      total->cycles += s->cycles;
      total->seconds += s->seconds;
    }
  }
  if (model.size() > 1)
    row("total", "", total_count, total_model, total_profiled, total_reference);
  fmt::print("\noverhead = host time with the timing model / host time counting instructions\n"
             "profiler = host time with the timing model and the call tracker / host time with "
             "the timing model\n");
  return kExitOk;
}

}  // namespace

void register_bench_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<BenchFlags>();
  auto* cmd = app.add_subcommand("bench", "Report simulator speed (instructions per host "
                                          "second) with and without the timing model and the "
                                          "profiler");
  cmd->add_option("suite", flags->suite, "Suite name or path (default: default)");
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--runs", flags->runs, "Timed runs per operation (default: the suite's)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--rounds", flags->rounds, "Alternating rounds per mode (default 3)")
      ->check(CLI::Range(1, 100));
  cmd->callback([flags, &state] { state.exit_code = bench(*flags); });
}

}  // namespace fathom::cli
