#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <iterator>
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
  std::vector<std::string> boards;
  int64_t runs = -1;
  int64_t rounds = 3;
  bool skip_suite_wall = false;
  std::vector<std::string> modes;  // only these (kModes names); empty = all
};

struct Speed {
  uint64_t instructions = 0;
  uint64_t cycles = 0;
  double seconds = 0;
  double instruction_rate() const { return seconds > 0 ? instructions / seconds / 1e6 : 0.0; }
  double cycle_rate() const { return seconds > 0 ? cycles / seconds / 1e6 : 0.0; }
};

using Key = std::pair<std::string, std::string>;  // configuration, board

// The simulator set-ups the benchmark compares, in table order.
struct Mode {
  const char* name;
  target::SimSettings::Hooks hooks;
  bool run_observers;  // the memory watch and the primitive-share tracker, as `fathom run`
  bool profiled;       // the profiler's call tracker, as `fathom profile`
  bool qemu_engine = false;  // not the simulator: QEMU 10 with the engine plugin (QEMU boards)
};
constexpr Mode kModes[] = {
    {"count only", target::SimSettings::Hooks::kBlockCountOnly, false, false},
    {"timing model", target::SimSettings::Hooks::kBlock, false, false},
    {"model + run observers", target::SimSettings::Hooks::kBlock, true, false},
    {"model + profiler", target::SimSettings::Hooks::kBlock, false, true},
    {"per-instruction reference", target::SimSettings::Hooks::kPerInstruction, false, false},
    {"QEMU engine: model", target::SimSettings::Hooks::kBlock, false, false, true},
    {"QEMU engine: + observers", target::SimSettings::Hooks::kBlock, true, false, true},
    // As `fathom profile --qemu-engine model` runs: the run observers and the profiler's tracker.
    {"QEMU engine: + observers + profiler", target::SimSettings::Hooks::kBlock, true, true, true},
};
constexpr size_t kModel = 1;

// One pass of the suite in `mode`; per image the best (least) host time over the rounds so far
// is kept in `best`, since host noise only ever adds time.
// Returns the first image's error when no image ran (the QEMU engine on a board without
// [qemu], or without QEMU 10 built).
std::string measure(const model::Suite& suite, pipeline::RunOptions options, const Mode& mode,
                    std::map<Key, Speed>& best) {
  if (mode.qemu_engine) {
    // The QEMU target with the engine, measured again (not from the result cache); its host
    // time is the QEMU process's, start-up included.
    options.target.kind = model::TargetKind::kQemu;
    options.target.qemu_engine = true;
    options.target.qemu_engine_observers = mode.run_observers;
    // The profile is made and read back (its text handed over), then dropped.
    if (mode.profiled) options.target.qemu_engine_profile = [](std::string) {};
    options.fresh = true;
    const model::RunResult result = run_suite_or_throw(suite, options);
    std::string error;
    for (const auto& image : result.images) {
      if (image.host_seconds <= 0 || !image.error.empty()) {
        if (error.empty()) error = image.error;
        continue;
      }
      auto [it, inserted] = best.try_emplace({image.configuration, image.board});
      if (inserted || image.host_seconds < it->second.seconds)
        it->second = {image.total_instructions, image.total_cycles, image.host_seconds};
    }
    return best.empty() ? error : std::string();
  }
  options.target.kind = model::TargetKind::kSim;  // bench measures the simulator itself
  options.target.sim.hooks = mode.hooks;
  options.target.sim.memory_watch = mode.run_observers;
  options.target.sim.primitive_share = mode.run_observers;
  options.target.sim.untimed_kat_phase = false;  // the model's speed over the whole image
  std::vector<std::unique_ptr<profile::CallTracker>> trackers;  // outlive the runs
  // Always through target_for_image: never served from (or stored in) the result cache.
  options.target_for_image = [&trackers, &options, &mode](const model::Board&,
                                                          const elf::ElfImage& elf,
                                                          const std::filesystem::path&)
      -> util::Result<std::unique_ptr<target::Target>> {
    std::vector<sim::ExecutionObserver*> observers;
    if (mode.profiled) {
      trackers.push_back(
          std::make_unique<profile::CallTracker>(profile::tracker_options_for(elf)));
      observers.push_back(trackers.back().get());
    }
    return std::make_unique<target::SimTarget>(options.target.sim, std::move(observers));
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
  return {};
}

// Wall time of a whole `fathom run` of the default suite with `jobs` workers, as a user runs
// it (every `fathom run` observer on), measuring every image again: images come from the
// build cache, results are not reused.
double suite_wall_seconds(unsigned jobs) {
  const model::Suite suite = load_suite_or_throw("default");
  pipeline::RunOptions options;
  options.jobs = jobs;
  options.fresh = true;
  const auto start = std::chrono::steady_clock::now();
  run_suite_or_throw(suite, options);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Simulator speed on a suite: target instructions and model cycles per host second when only
// counting instructions (a block hook), with the timing model as measurements run (block hooks
// that charge each instruction to the model), with the observers every `fathom run` carries
// (memory watch, primitive-share tracker), with the profiler's call tracker (as `fathom
// profile` runs), and with the per-instruction reference hook. The modes alternate round by
// round, so host drift hits them alike; each keeps its best round per image. Then the wall
// time of the default suite with 1 and 2 workers. Figures for docs/PERFORMANCE.md, not a test.
int bench(const BenchFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite);
  pipeline::RunOptions options;
  options.configurations = flags.configurations;
  options.operations = flags.operations;
  options.boards = flags.boards;
  if (flags.runs > 0) options.runs = static_cast<uint32_t>(flags.runs);

  constexpr size_t kModeCount = std::size(kModes);
  std::array<std::map<Key, Speed>, kModeCount> best;
  std::string engine_error;  // the first engine mode's failure: the others are not tried
  for (int64_t round = 0; round < flags.rounds; ++round)
    for (size_t m = 0; m < kModeCount; ++m) {
      const bool asked = std::find(flags.modes.begin(), flags.modes.end(), kModes[m].name) !=
                         flags.modes.end();
      // The engine runs only QEMU boards' images: by default only when --board names some.
      const bool by_default = !kModes[m].qemu_engine || !flags.boards.empty();
      if (!(flags.modes.empty() ? by_default : asked)) continue;
      if (kModes[m].qemu_engine && !engine_error.empty()) continue;  // it failed once
      const std::string error = measure(suite, options, kModes[m], best[m]);
      if (kModes[m].qemu_engine) engine_error = error;
    }

  std::array<Speed, kModeCount> total;
  for (size_t m = 0; m < kModeCount; ++m)
    for (const auto& [key, s] : best[m]) {
      total[m].instructions += s.instructions;
      total[m].cycles += s.cycles;
      total[m].seconds += s.seconds;
    }
  fmt::print("simulator speed on suite '{}' ({} image{}, {} M instructions and {} M cycles per "
             "pass; best of {} alternating rounds per image; builds excluded)\n\n",
             suite.name, best[kModel].size(), best[kModel].size() == 1 ? "" : "s",
             total[kModel].instructions / 1000000, total[kModel].cycles / 1000000, flags.rounds);
  fmt::print("{:<36} {:>14} {:>14} {:>16} {:>16}\n", "mode", "M instr/s", "M cycles/s",
             "time / counting", "time / model");
  auto ratio = [](const Speed& num, const Speed& den) {
    return den.seconds > 0 ? num.seconds / den.seconds : 0.0;
  };
  for (size_t m = 0; m < kModeCount; ++m) {
    if (best[m].empty()) {
      if (kModes[m].qemu_engine && !engine_error.empty())
        fmt::print("{:<36} not run: {}\n", kModes[m].name, engine_error);
      continue;
    }
    fmt::print("{:<36} {:>14.1f} {:>14.1f} {:>15.2f}x {:>15.2f}x\n", kModes[m].name,
               total[m].instruction_rate(),
               kModes[m].hooks == target::SimSettings::Hooks::kBlockCountOnly
                   ? 0.0
                   : total[m].cycle_rate(),
               ratio(total[m], total[0]), ratio(total[m], total[kModel]));
  }
  if (best[kModel].size() > 1) {
    fmt::print("\nper image, M instructions/s:\n{:<28} {:<10}", "configuration", "board");
    for (const Mode& mode : kModes) fmt::print(" {:>14.14}", mode.name);
    fmt::print("\n");
    for (const auto& [key, s] : best[kModel]) {
      fmt::print("{:<28} {:<10}", key.first, key.second);
      for (size_t m = 0; m < kModeCount; ++m) {
        const auto it = best[m].find(key);
        fmt::print(" {:>14.1f}", it != best[m].end() ? it->second.instruction_rate() : 0.0);
      }
      fmt::print("\n");
    }
  }
  fmt::print("\ncount only: one block hook counting instructions (no cycles); run observers: the "
             "memory watch and the primitive-share call tracker that every `fathom run` "
             "carries; profiler: the call tracker of `fathom profile`\n");
  fmt::print("{}\n", target::SimTarget::engine_note());
  if (std::any_of(std::begin(kModes), std::end(kModes), [&](const Mode& mode) {
        return mode.qemu_engine && !best[&mode - kModes].empty();
      }))
    fmt::print("QEMU engine: the same images on QEMU 10 with fathom's engine plugin "
               "(--qemu-engine model): the timing model alone, and with the run observers "
               "(memory watch, primitive-share tracker) in the plugin as `fathom run` has them, "
               "and with `fathom profile`'s call tracker too (--qemu-engine model); "
               "host time is the QEMU process's, start-up included; its instruction totals "
               "differ a little from the simulator's because the firmware prints CYCCNT values "
               "of 0 there (docs/QEMU-ENGINE.md)\n");
  if (!flags.skip_suite_wall) {
    const double one = suite_wall_seconds(1);
    const double two = suite_wall_seconds(2);
    fmt::print("\ndefault suite, `fathom run --fresh` (images from the build cache, every "
               "result measured again): -j 1 {:.1f} s, -j 2 {:.1f} s\n",
               one, two);
  }
  return kExitOk;
}

}  // namespace

void register_bench_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<BenchFlags>();
  auto* cmd = app.add_subcommand("bench", "Report simulator speed (instructions and cycles per host second) counting only, with the "
                       "timing model, with the run observers, with the profiler and per "
                       "instruction; and the default suite's wall time with -j 1 and -j 2");
  cmd->add_option("suite", flags->suite, "Suite name or path (default: default)");
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--runs", flags->runs, "Timed runs per operation (default: the suite's)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--board", flags->boards,
                  "Only these boards (repeatable); a QEMU board (qemu-mps2-an505) adds the QEMU "
                  "engine's speed on the same images")
      ->expected(1, -1);
  cmd->add_option("--rounds", flags->rounds, "Alternating rounds per mode (default 3)")
      ->check(CLI::Range(1, 100));
  std::vector<std::string> mode_names;
  for (const Mode& mode : kModes) mode_names.push_back(mode.name);
  cmd->add_option("--mode", flags->modes, "Only these modes (repeatable; default: all)")
      ->check(CLI::IsMember(mode_names));
  cmd->add_flag("--skip-suite-wall", flags->skip_suite_wall,
                "Do not time the default suite with -j 1 and -j 2 after the speed table");
  cmd->callback([flags, &state] { state.exit_code = bench(*flags); });
}

}  // namespace fathom::cli
