#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/output_directory.h"
#include "cli/paths.h"
#include "cli/result_output.h"
#include "cli/suite_session.h"
#include "model/board.h"
#include "pipeline/shard_selection.h"
#include "suite/analysis_specs.h"
#include "report/writer.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/sha256.h"

namespace fathom::cli {
namespace {

struct RunFlags {
  std::string suite;
  std::vector<std::string> configurations;
  std::vector<std::string> operations;
  std::vector<std::string> boards;
  int64_t runs = -1;
  int64_t warmup = -1;
  std::string out_dir;
  std::string format = "table";
  bool wide = false;  // --wide: every column of the table
  std::string sim_hooks = "block";
  bool time_kat_phase = false;  // --time-kat-phase
  std::string target;       // --target: sim, qemu, serial (default: each board's own)
  std::string cross_check;  // --cross-check: a second target
  std::string qemu_engine = "count";  // --qemu-engine: count (QEMU 7.2) or model (QEMU 10)
  std::string port;         // --port: a serial board's UART device
  int64_t baud = -1;        // --baud
  std::string db;          // history database; "" = history::default_history_path()
  bool no_history = false;
  std::string name;        // label of the stored run
  int64_t jobs = 0;        // images built and run at once; 0 = online CPUs
  bool fresh = false;      // measure again even if the result cache holds the results
  std::string shard;       // --shard i/N; empty = the whole selection
};

int run(const RunFlags& flags) {
  auto writer = report::make_writer(flags.format);
  if (!writer) throw util::FatalError(writer.error().message, kExitUsage);
  if (!flags.out_dir.empty())
    if (auto ok = check_output_directory(flags.out_dir); !ok)
      throw util::FatalError(ok.error().message, kExitUsage);
  std::optional<model::ShardPart> shard;
  if (!flags.shard.empty()) {
    auto part = pipeline::parse_shard_part(flags.shard);
    if (!part) throw util::FatalError(part.error().message, kExitUsage);
    if (!flags.db.empty() || !flags.name.empty()) {
      const char* flag = flags.db.empty() ? "--name" : "--db";
      throw util::FatalError(
          fmt::format("{} with --shard: a shard is not stored in the history; store the merged "
                      "run instead (fathom merge FILE... {} ...)",
                      flag, flag),
          kExitUsage);
    }
    shard = *part;
  }
  const model::Suite suite = load_suite_or_throw(flags.suite);
  pipeline::RunOptions options;
  options.shard = shard;
  options.configurations = flags.configurations;
  options.operations = flags.operations;
  options.boards = flags.boards;
  options.target.sim.hooks = flags.sim_hooks == "per-instruction"
                                 ? target::SimSettings::Hooks::kPerInstruction
                                 : target::SimSettings::Hooks::kBlock;
  auto kind_of = [](const std::string& name, const char* flag) {
    auto kind = model::parse_target_kind(name);
    if (!kind)
      throw util::FatalError(
          fmt::format("{} '{}' is not a target; use sim, qemu or serial", flag, name), kExitUsage);
    return *kind;
  };
  options.target.sim.untimed_kat_phase = !flags.time_kat_phase;
  if (!flags.target.empty()) options.target.kind = kind_of(flags.target, "--target");
  if (!flags.cross_check.empty()) options.cross_check = kind_of(flags.cross_check, "--cross-check");
  options.target.qemu_engine = flags.qemu_engine == "model";
  options.target.serial.port = flags.port;
  if (flags.baud > 0) options.target.serial.baud = static_cast<uint32_t>(flags.baud);
  if (flags.runs >= 0) options.runs = static_cast<uint32_t>(flags.runs);
  if (flags.warmup >= 0) options.warmup = static_cast<uint32_t>(flags.warmup);
  options.jobs = static_cast<unsigned>(flags.jobs);
  options.fresh = flags.fresh;
  if (auto results = result_cache_root()) options.result_cache_dir = *results;
  // With an operation list, the operations the suite's workflows and fairness check name run
  // too (pipeline/suite_runner.h): said before the run, so that more rows are no surprise.
  if (!flags.operations.empty() && util::notes_enabled()) {
    std::vector<std::string> added;
    for (const auto& op : suite::operations_named_by_analyses(suite))
      if (std::find(flags.operations.begin(), flags.operations.end(), op) == flags.operations.end())
        added.push_back(op);
    const char* named_by = suite.workflows.empty() ? "fairness check"
                           : suite.fairness        ? "workflows and fairness check"
                                                   : "workflows";
    if (!added.empty())
      fmt::print(stderr,
                 "fathom: the suite's {} name {}: they run too, in the images that offer {} (a "
                 "copy of the suite without those tables runs the operations alone)\n",
                 named_by, fmt::join(added, ", "), added.size() == 1 ? "it" : "them");
  }
  pipeline::RunCounts counts;
  model::RunResult result = run_suite_or_throw(suite, options, &counts);
  // What the caches saved, on stderr (results go to stdout): "rebuilt nothing" is checkable.
  if (util::notes_enabled())
    fmt::print(stderr,
               "fathom: {} image{}: {} build{} reused from the build cache, {} result{} reused "
               "from the result cache{}{}{}\n",
               counts.images, counts.images == 1 ? "" : "s", counts.builds_reused,
               counts.builds_reused == 1 ? "" : "s", counts.results_reused,
               counts.results_reused == 1 ? "" : "s",
               counts.results_reused > 0 ? " (--fresh measures again)" : "",
               counts.most_machines > 1
                   ? fmt::format("; operations ran on up to {} machines at once",
                                 counts.most_machines)
                   : std::string(),
               counts.ran_again > 0
                   ? fmt::format("; {} image{} ran again on one machine (slots that could not "
                                 "be combined: a fault, the budget, or an operation observed "
                                 "outside its slot)",
                                 counts.ran_again, counts.ran_again == 1 ? "" : "s")
                   : std::string());

  ResultOutput output;
  output.format = flags.format;
  output.wide = flags.wide;
  output.out_dir = flags.out_dir;
  output.db = flags.db;
  output.no_history = flags.no_history;
  output.name = flags.name;
  if (shard) {
    auto suite_sha256 = util::sha256_file(suite.path);
    if (!suite_sha256) throw util::FatalError(suite_sha256.error().message);
    result.shard = pipeline::make_shard_info(
        *shard, pipeline::shard_selection(suite, options,
                                          flags.suite.empty() ? "default" : flags.suite,
                                          *suite_sha256));
    if (result.images.empty())
      fmt::print(stderr, "fathom: shard {}/{} has no images (the selection has {}): its result "
                         "is empty\n",
                 shard->index, shard->count, result.shard->selection.images.size());
    if (!flags.no_history)
      fmt::print(stderr, "fathom: shard {}/{} not stored in the history (a part of a run; "
                         "`fathom merge` stores the merged run)\n",
                 shard->index, shard->count);
    output.no_history = true;
  }
  return finish_run(result, output);
}

}  // namespace

void register_run_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<RunFlags>();
  auto* cmd = app.add_subcommand(
      "run", "Build the suite's firmware images, run them on the simulator, report the results");
  cmd->add_option("suite", flags->suite,
                  "Suite name (in suites/) or path to a suite .toml file; default: default");
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--board", flags->boards,
                  "Run on these boards instead of the suite's (repeatable; see fathom list)")
      ->expected(1, -1);
  cmd->add_option("--runs", flags->runs, "Timed runs per operation (default: the suite's)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--warmup", flags->warmup, "Untimed runs before them (default: the suite's)")
      ->check(CLI::Range(0, 100000));
  cmd->add_option("--out", flags->out_dir,
                  "Also write results.json (and results.<format>) into this directory (created "
                  "if missing; not a file)");
  cmd->add_option("--sim-hooks", flags->sim_hooks,
                  "How the simulator observes execution: block (default) or per-instruction "
                  "(the slower reference; same counts)")
      ->check(CLI::IsMember({"block", "per-instruction"}));
  cmd->add_flag("--time-kat-phase", flags->time_kat_phase,
                "Simulator: also time the known-answer phase of snapshot images (slower; no "
                "operation's figure changes, the image's totals.cycles then cover it and "
                "totals.untimed_instructions is 0)");
  cmd->add_option("--target", flags->target,
                  "Run on this target instead of each board's own (board.toml `target`): sim, "
                  "qemu or serial")
      ->check(CLI::IsMember({"sim", "qemu", "serial"}));
  cmd->add_option("--cross-check", flags->cross_check,
                  "Also run every image on this target and compare instruction counts per run "
                  "(and cycles, when both targets measure them), the firmware's memory figures "
                  "and KAT verdicts (e.g. --board qemu-mps2-an386 --cross-check sim); a "
                  "difference fails the run")
      ->check(CLI::IsMember({"sim", "qemu"}));
  cmd->add_option("--qemu-engine", flags->qemu_engine,
                  "QEMU target: count (default; QEMU 7.2 counts instructions, no cycles) or "
                  "model (QEMU 10 with fathom's engine plugin: cycles from the board's timing "
                  "model; scripts/build-qemu10.sh builds it)")
      ->check(CLI::IsMember({"count", "model"}));
  cmd->add_option("--port", flags->port,
                  "Serial target: the board's UART device (overrides board.toml [serial] port)");
  add_wide_flag(*cmd, flags->wide);
  auto* format =
      cmd->add_option("--format", flags->format,
                      "Output format: table, json, csv, markdown, gbench, github-benchmark "
                      "(github-action-benchmark's customSmallerIsBetter), pqm4-md (benchmark "
                      "tables in pqm4's layout)")
          ->check(CLI::IsMember(report::writer_formats()));
  state.json_errors.add(*cmd, *format);
  cmd->add_option("--db", flags->db,
                  "Store the run in this history database (default: see docs/CLI.md)");
  cmd->add_flag("--no-history", flags->no_history, "Do not store the run in the history");
  cmd->add_option("--name", flags->name, "Label the stored run (baseline set, compare take it)");
  cmd->add_option("-j,--jobs", flags->jobs,
                  "Images built and run at once (default: the number of online CPUs; 1 = one "
                  "after another); results are the same and in the same order")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--baud", flags->baud,
                  "Serial target: the UART's baud rate (default: its [serial] baud)")
      ->check(CLI::Range(50, 20000000));
  cmd->add_option("--shard", flags->shard,
                  "Run only shard i of N (i/N, 1 <= i <= N): image k of the selection (0-based, "
                  "suite order) belongs to shard (k mod N) + 1; `fathom merge` combines the "
                  "shards' JSON results (docs/SCALE-OUT.md)");
  cmd->add_flag("--fresh", flags->fresh,
                "Measure every image again instead of reusing results from the result cache");
  cmd->callback([flags, &state] { state.exit_code = run(*flags); });
}

}  // namespace fathom::cli
