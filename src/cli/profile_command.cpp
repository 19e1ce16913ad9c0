#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/output_directory.h"
#include "cli/paths.h"
#include "cli/profile_input.h"
#include "cli/profile_session.h"
#include "cli/suite_session.h"
#include "elf/build_attributes.h"
#include "elf/debug_info.h"
#include "elf/elf_image.h"
#include "profile/call_tracker.h"
#include "profile/export/profile_writer.h"
#include "profile/function_summary.h"
#include "profile/inline_expansion.h"
#include "profile/profile_file.h"
#include "profile/symbolize.h"
#include "profile/tracker_options.h"
#include "report/summary.h"
#include "report/text_table.h"
#include "target/sim/elf_board.h"
#include "target/sim/sim_target.h"
#include "target/target_factory.h"
#include "suite/board_loader.h"
#include "util/error.h"
#include "util/name_suggestion.h"
#include "util/progress.h"
#include "util/terminal.h"

namespace fathom::cli {
namespace {

struct ProfileFlags {
  std::string target;  // suite name/path, or an ELF file
  std::string configuration;
  std::string operation;
  std::string board;
  // Each --format is written into --out DIR (one --format without --out: only the summary).
  std::vector<std::string> formats;
  std::string out_dir;
  int64_t runs = 1;
  bool whole_run = false;
  bool fresh = false;      // profile again even if the result cache holds this profile
  size_t top = 15;
  std::vector<std::string> functions;  // --function, repeatable
  bool no_inline = false;
  uint64_t cycle_budget = 10'000'000'000ull;
  std::string qemu_engine;  // --qemu-engine model: profile on QEMU 10 with fathom's engine
};

// The functions of `p` by inclusive cycles (profile/function_summary.h), `top` rows (0: all),
// fitted to the terminal (the function and its source line may run past it).
void print_summary(const profile::ProfileSet& set, const profile::Profile& p, size_t top) {
  const std::vector<profile::FunctionCosts> rows = profile::function_costs(p);
  const double total = p.total_cycles ? static_cast<double>(p.total_cycles) : 1.0;
  fmt::print("{}: {} cycles, {} instructions, {} execution{}\n\n", p.name,
             report::with_thousands(p.total_cycles), report::with_thousands(p.total_instructions),
             p.execution_cycles.size(), p.execution_cycles.size() == 1 ? "" : "s");
  report::TextTable table({{"inclusive", true},
                           {"[%]", true},
                           {"exclusive", true},
                           {"[%]", true},
                           {"calls", true},
                           {"function", false, report::ColumnFit::kOverflow}});
  for (size_t i = 0; i < rows.size() && (top == 0 || i < top); ++i) {
    const profile::FunctionCosts& r = rows[i];
    const profile::Frame& f = set.frames[r.frame];
    table.add_row({report::with_thousands(r.inclusive_cycles),
                   fmt::format("{:.2f}", 100.0 * static_cast<double>(r.inclusive_cycles) / total),
                   report::with_thousands(r.exclusive_cycles),
                   fmt::format("{:.2f}", 100.0 * static_cast<double>(r.exclusive_cycles) / total),
                   report::with_thousands(r.calls),
                   f.name + (f.file.empty() ? "" : fmt::format("  ({}:{})", f.file, f.line))});
  }
  table.write(std::cout, util::terminal_columns(STDOUT_FILENO));
}

// The file `format` is written to in --out DIR: "<base>.speedscope.json", "<base>.perfetto.json",
// "<base>.folded", "callgrind.out.<base>" (the name KCachegrind recognises), "<base>.profile.json"
// for fathom's json, else "<base>.<format>".
std::string profile_file_name(const std::string& base, const std::string& format) {
  if (format == "speedscope" || format == "perfetto") return base + "." + format + ".json";
  if (format == "callgrind") return "callgrind.out." + base;
  if (format == "json") return base + ".profile.json";
  return base + "." + format;
}

// The formats to write, checked before anything runs: a usage error for an unknown format,
// for several --format without --out, or for an --out that is not a directory.
std::vector<std::string> outputs(const ProfileFlags& flags) {
  std::vector<std::string> formats = flags.formats;
  if (formats.empty()) formats.push_back("speedscope");
  for (const auto& format : formats)
    if (auto w = profile::make_profile_writer(format); !w)
      throw util::FatalError(w.error().message, kExitUsage);
  if (flags.out_dir.empty()) {
    if (formats.size() == 1) return {};
    throw util::FatalError(fmt::format("{} --format but no --out: give --out DIR, the directory "
                                       "to write one file per --format into",
                                       formats.size()),
                           kExitUsage);
  }
  if (auto ok = check_output_directory(flags.out_dir); !ok)
    throw util::FatalError(ok.error().message, kExitUsage);
  return formats;
}

// Writes each --format of `set` into --out as profile_file_name(`base`, format).
void write_profile(const ProfileFlags& flags, const profile::ProfileSet& set,
                   const std::string& base) {
  const std::vector<std::string> formats = outputs(flags);
  if (formats.empty()) return;
  auto dir = make_output_directory(flags.out_dir);
  if (!dir)
    throw util::FatalError(dir.error().message, dir.error().is_usage ? kExitUsage : kExitFailure);
  for (const auto& format : formats) {
    const std::string path = (*dir / profile_file_name(base, format)).string();
    auto writer = profile::make_profile_writer(format);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    (*writer)->write(set, out);
    out.close();
    if (!out) throw util::FatalError(fmt::format("cannot write '{}'", path));
    if (util::notes_enabled())
      fmt::print(stderr, "fathom: wrote {} profile to {} ({} bytes)\n", format, path,
                 std::filesystem::file_size(path));
  }
}

int profile_suite(const ProfileFlags& flags) {
  if (flags.operation.empty())
    throw util::FatalError("fathom profile on a suite needs --op OPERATION (see fathom list)",
                           kExitUsage);
  (void)outputs(flags);
  const model::Suite suite = load_suite_or_throw(flags.target);
  ProfiledImage profiled =
      profile_image(suite, flags.configuration, flags.board, {flags.operation},
                    static_cast<uint32_t>(flags.runs), flags.qemu_engine == "model",
                    std::nullopt, flags.whole_run, flags.fresh);
  if (!flags.no_inline) {
    auto debug = elf::DebugInfo::open(profiled.elf_path);
    if (!debug) throw util::FatalError(debug.error().message);
    profile::expand_inlined(profiled.profiles, *debug);
  }
  const model::ImageResult& image = profiled.image;
  const model::OperationResult* op = nullptr;
  for (const auto& o : image.operations)
    if (o.operation == flags.operation) op = &o;
  // Correctness gates everything measured: no profile for an operation whose KAT failed.
  if (!image.error.empty() || !op || !op->has_timing())
    throw util::FatalError(fmt::format(
        "{} on {}: no profile for {}: {}", image.configuration, image.board, flags.operation,
        !image.error.empty() ? image.error
        : !op               ? "the image did not report it"
                            : (op->error.empty() ? "its known-answer test did not pass" : op->error)));
  const profile::ProfileSet& set = profiled.profiles;
  // The profiled operation first (what single-profile formats write), the whole run on request.
  profile::ProfileSet out = set;
  out.profiles.clear();
  for (const auto& p : set.profiles)
    if (p.name == flags.operation) out.profiles.push_back(p);
  if (out.profiles.empty())
    throw util::FatalError(fmt::format("{} never called the run function of {}",
                                       image.configuration, flags.operation));
  if (flags.whole_run) out.profiles.push_back(set.profiles.front());
  const profile::Profile& p = out.profiles.front();
  // The profile sums the executions the harness timed (on the simulator the first of them also
  // measures the stack: no untimed execution is made; profile/tracker_options.h).
  uint64_t harness_sum = 0;
  for (uint64_t c : op->cycle_samples) harness_sum += c;
  fmt::print("{} on {}: {} profiled = the {} timed execution{} of {}; the harness measured {} "
             "cycles over them{}\n",
             image.configuration, image.board, report::with_thousands(p.total_cycles),
             p.execution_cycles.size(), p.execution_cycles.size() == 1 ? "" : "s",
             flags.operation, report::with_thousands(harness_sum),
             op->cycle_samples.size() == 1 ? "" : fmt::format(" ({} runs)", op->cycle_samples.size()));
  print_summary(out, p, flags.top);
  write_profile(flags, out, image.configuration + "." + flags.operation);
  return kExitOk;
}

// Names of `image`'s functions close to `name`: the typo-distance ones (util::nearest_names),
// then those that start with or contain it, nearest first, at most five.
std::vector<std::string> similar_functions(const elf::ElfImage& image, const std::string& name) {
  std::vector<std::string> functions;
  for (const auto& s : image.symbols())
    if (s.is_function && std::find(functions.begin(), functions.end(), s.name) == functions.end())
      functions.push_back(s.name);
  std::vector<std::string> out = util::nearest_names(name, functions);
  std::vector<std::string> containing;
  for (const auto& f : functions)
    if (f.find(name) != std::string::npos && std::find(out.begin(), out.end(), f) == out.end())
      containing.push_back(f);
  std::stable_sort(containing.begin(), containing.end(), [&](const auto& x, const auto& y) {
    return util::edit_distance(name, x) < util::edit_distance(name, y);
  });
  out.insert(out.end(), containing.begin(), containing.end());
  if (out.size() > 5) out.resize(5);
  return out;
}

// The board an ELF runs on: --board NAME (built-in), --board FILE (a board description, e.g.
// the user's own part), or, without --board, the built-in sim board of the ELF's core (its
// build attributes) with the ELF's own memory map (target/sim/elf_board.h).
struct ElfRunBoard {
  model::Board board;
  std::vector<uint8_t> vector_table;
  std::string layout;  // how the memory map was chosen, for the output; "" for --board
};

ElfRunBoard elf_run_board(const ProfileFlags& flags, const elf::ElfImage& image) {
  const auto boards_dir = repository_root() / "firmware" / "boards";
  if (!flags.board.empty()) {
    const std::filesystem::path path(flags.board);
    std::error_code ec;
    if (path.extension() == ".toml" || std::filesystem::is_regular_file(path, ec)) {
      std::ifstream in(path, std::ios::binary);
      if (!in)
        throw util::FatalError(fmt::format("--board {}: no such board file", flags.board),
                               kExitUsage);
      std::ostringstream text;
      text << in.rdbuf();
      auto board = suite::parse_board(text.str(), path.string());
      if (!board) throw util::FatalError(board.error().message, kExitUsage);
      board->directory = path.parent_path();
      return {std::move(*board), {}, ""};
    }
    auto board = suite::load_board(boards_dir, flags.board);
    if (!board) throw util::FatalError(board.error().message, kExitUsage);
    return {std::move(*board), {}, ""};
  }
  if (image.arm_attributes().empty())
    throw util::FatalError(
        fmt::format("'{}' has no ARM build attributes (.ARM.attributes) to tell its core; give "
                    "--board (a built-in board or a board description file)",
                    flags.target),
        kExitUsage);
  auto attributes = elf::parse_arm_build_attributes(image.arm_attributes());
  if (!attributes)
    throw util::FatalError(fmt::format("'{}': {}", flags.target, attributes.error().message),
                           kExitUsage);
  auto core = elf::cortex_m_core(*attributes);
  if (!core) throw util::FatalError(fmt::format("'{}': {}", flags.target, core.error().message), kExitUsage);
  // The built-in simulated board of that core gives the timing.
  const std::string timing_name = *core == "cortex-m0plus" ? "sim-m0plus"
                                  : *core == "cortex-m3"   ? "sim-m3"
                                  : *core == "cortex-m4"   ? "sim-m4"
                                                           : "sim-m33";
  auto timing = suite::load_board(boards_dir, timing_name);
  if (!timing) throw util::FatalError(timing.error().message);
  auto derived = target::board_from_elf(image, *timing);
  if (!derived)
    throw util::FatalError(fmt::format("'{}': {}", flags.target, derived.error().message),
                           derived.error().is_usage ? kExitUsage : kExitFailure);
  return {std::move(derived->board), std::move(derived->vector_table),
          fmt::format("{} (Tag_CPU_arch of the ELF) timed as {}; {}", *core, timing_name,
                      derived->layout)};
}

// count, min, median, mean, max of `values`, with thousands separators.
template <typename T>
std::string call_statistics(const std::vector<T>& values) {
  std::vector<T> v = values;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (T x : v) sum += static_cast<double>(x);
  const double median = v.size() % 2 ? static_cast<double>(v[v.size() / 2])
                                     : (static_cast<double>(v[v.size() / 2 - 1]) +
                                        static_cast<double>(v[v.size() / 2])) / 2;
  return fmt::format("min {}, median {}, mean {}, max {}", report::with_thousands(v.front()),
                     report::rounded_with_thousands(median),
                     report::rounded_with_thousands(sum / static_cast<double>(v.size())),
                     report::with_thousands(v.back()));
}

// A bare-metal ELF that is not a fathom image: its console is semihosting (newlib rdimon).
int profile_elf(const ProfileFlags& flags) {
  (void)outputs(flags);
  auto image = elf::ElfImage::load(flags.target);
  if (!image) throw util::FatalError(image.error().message, kExitUsage);
  const ElfRunBoard run_board = elf_run_board(flags, *image);
  const model::Board* board = &run_board.board;
  profile::TrackerOptions options = profile::tracker_options_for(*image);
  for (const auto& function : flags.functions) {
    const elf::Symbol* s = image->find_symbol(function);
    if (!s || !s->is_function) {
      const auto similar = similar_functions(*image, function);
      throw util::FatalError(
          fmt::format("'{}' has no function named '{}'{}", flags.target, function,
                      similar.empty() ? "" : fmt::format("; did you mean {}?",
                                                          fmt::join(similar, ", "))),
          kExitUsage);
    }
    options.spans.push_back({function, s->address});
  }
  profile::CallTracker tracker(options);
  if (!run_board.layout.empty()) fmt::print(stderr, "fathom: {}\n", run_board.layout);
  auto ran = target::SimTarget::run_bare_metal(*image, *board, &tracker, flags.cycle_budget,
                                               run_board.vector_table);
  if (!ran) throw util::FatalError(ran.error().message, kExitUsage);
  const sim::RunOutcome& outcome = ran->outcome;
  std::cout << outcome.console;
  if (!outcome.console.empty() && outcome.console.back() != '\n') std::cout << '\n';
  profile::ProfileSet set = tracker.finish();
  auto debug = elf::DebugInfo::open(flags.target);
  if (!debug) throw util::FatalError(debug.error().message);
  profile::symbolize(set, *debug);
  if (!flags.no_inline) profile::expand_inlined(set, *debug);
  set.source = flags.target;
  set.object = std::filesystem::absolute(flags.target).string();
  set.board = board->name;
  set.clock_hz = board->clock_hz;
  set.timing_model = ran->timing_model;
  fmt::print("{} on {} ({}): {} cycles, {} instructions, exit code {}, peak stack {} bytes "
             "(deepest SP at block starts)\n",
             flags.target, board->name, set.timing_model, report::with_thousands(outcome.cycles),
             report::with_thousands(outcome.instructions),
             outcome.exited ? std::to_string(outcome.exit_code) : "none",
             report::with_thousands(set.profiles[0].peak_stack_bytes));
  if (outcome.fault)
    fmt::print("stopped by a fault: {} at {:#010x} ({}): {}\n", outcome.fault->kind,
               outcome.fault->pc, outcome.fault->function, outcome.fault->detail);
  // With --function, only its executions are exported (and the whole run with --whole-run),
  // one profile per function in the order given.
  if (!flags.functions.empty()) {
    std::vector<profile::Profile> called;
    for (const auto& function : flags.functions) {
      auto it = std::find_if(set.profiles.begin() + 1, set.profiles.end(),
                             [&](const auto& p) { return p.name == function; });
      if (it == set.profiles.end() || it->execution_cycles.empty()) {
        fmt::print("{} was never called{}\n", function,
                   flags.functions.size() == 1
                       ? ""
                       : " outside the calls of another --function (the calls profiled do not "
                         "nest)");
        continue;
      }
      const profile::Profile& f = *it;
      fmt::print("{}: {} call{}; cycles {}; instructions {}; deepest stack {} bytes below the "
                 "initial SP\n",
                 function, f.execution_cycles.size(), f.execution_cycles.size() == 1 ? "" : "s",
                 call_statistics(f.execution_cycles),
                 f.execution_instructions.empty() ? "n/a"
                                                  : call_statistics(f.execution_instructions),
                 report::with_thousands(f.peak_stack_bytes));
      called.push_back(f);
    }
    if (flags.whole_run) called.push_back(set.profiles.front());
    set.profiles = std::move(called);
  }
  fmt::print("\n");
  print_summary(set, set.profiles.front(), flags.top);
  write_profile(flags, set,
                std::filesystem::path(flags.target).stem().string() +
                    (flags.functions.size() == 1 ? "." + flags.functions.front() : ""));
  return outcome.fault ? kExitFailure : kExitOk;
}

}  // namespace

ProfiledImage profile_image(const model::Suite& suite, const std::string& configuration,
                            const std::string& board, const std::vector<std::string>& operations,
                            uint32_t runs, bool qemu_engine,
                            std::optional<uint32_t> secret_variant, bool whole_run, bool fresh) {
  pipeline::RunOptions options;
  options.target.sim.caller_observers_watch_kat_phase = whole_run;
  if (secret_variant) {
    options.secret_variants = true;
    options.secret_first = *secret_variant;
  }
  if (!configuration.empty()) options.configurations = {configuration};
  else if (!suite.configurations.empty()) options.configurations = {suite.configurations.front().name};
  options.operations = operations;
  if (!board.empty()) options.boards = {board};
  options.runs = runs;
  options.warmup = 0;
  // Only the first image (configuration x board) is profiled.
  std::unique_ptr<profile::CallTracker> tracker;
  std::filesystem::path elf_path;
  std::optional<std::string> engine_profile;  // the engine's profile file, as text
  // The simulator runs it whatever the board's own target: the profile watches execution. With
  // the QEMU engine, QEMU 10 runs it and the engine's plugin watches.
  options.target.kind = qemu_engine ? model::TargetKind::kQemu : model::TargetKind::kSim;
  options.target_for_image = [&](const model::Board& b, const elf::ElfImage& image,
                                 const std::filesystem::path& elf)
      -> util::Result<std::unique_ptr<target::Target>> {
    if (qemu_engine) {
      if (!b.qemu)
        return util::fail_usage(fmt::format(
            "--qemu-engine model profiles on QEMU, and board '{}' has no [qemu] machine: use a "
            "QEMU board (--board qemu-mps2-an505, qemu-mps2-an386)",
            b.name));
      target::TargetSettings settings = options.target;
      settings.qemu_engine = true;
      settings.qemu_engine_observers = true;
      if (elf_path.empty()) {
        elf_path = elf;
        settings.qemu_engine_profile = [&engine_profile](std::string text) {
          engine_profile = std::move(text);
        };
      }
      return target::make_target(b, settings);
    }
    std::vector<sim::ExecutionObserver*> observers;
    if (!tracker) {
      elf_path = elf;
      tracker = std::make_unique<profile::CallTracker>(profile::tracker_options_for(image));
      observers.push_back(tracker.get());
    }
    return std::make_unique<target::SimTarget>(options.target.sim, std::move(observers));
  };
  // The result cache keeps the profile with the image's result (a profile file beside it):
  // the same image, parameters, observers and fathom executable profile alike, so a repeated
  // profile is read back (`fresh` profiles again); a secret variant is part of the key.
  std::optional<profile::ProfileSet> kept;  // the profile kept or read back
  if (auto results = result_cache_root()) {
    options.result_cache_dir = *results;
    options.fresh = fresh;
    pipeline::RunOptions::KeptObservation observation;
    observation.key = fmt::format("profile whole_run={} engine={}", whole_run, qemu_engine);
    observation.save = [&](const std::filesystem::path& elf) -> std::optional<std::string> {
      if (elf != elf_path) return std::nullopt;  // an image the tracker did not watch
      if (qemu_engine) return engine_profile;
      kept = tracker->finish();
      std::ostringstream text;
      profile::write_profile_file(*kept, text);
      return text.str();
    };
    observation.load = [&](const std::filesystem::path& elf, std::string_view text) {
      if (elf != elf_path) return false;
      auto parsed = profile::parse_profile_file(text);
      if (!parsed) return false;
      kept = std::move(*parsed);
      return true;
    };
    options.kept_observation = std::move(observation);
  }
  // A profile evaluates no workflow or fairness check, so their operations need not run: only
  // the ones asked for (or the suite's) are profiled.
  model::Suite profiled = suite;
  profiled.workflows.clear();
  profiled.fairness.reset();
  model::RunResult result = run_suite_or_throw(profiled, options);
  if (result.images.empty() || elf_path.empty())
    throw util::FatalError("nothing was profiled: no image was built and run");
  ProfiledImage out;
  out.image = std::move(result.images.front());
  if (!out.image.provenance.reused_from.empty())
    std::cerr << fmt::format("fathom: the profile of {} on {} is the one made at {}, read back "
                             "from the result cache (--fresh profiles again)\n",
                             out.image.configuration, out.image.board,
                             out.image.provenance.reused_from);
  if (kept) {
    out.profiles = std::move(*kept);
  } else if (qemu_engine) {
    if (!engine_profile)
      throw util::FatalError(fmt::format(
          "{} on {}: the QEMU engine returned no profile{}", out.image.configuration,
          out.image.board, out.image.error.empty() ? "" : ": " + out.image.error));
    auto parsed = profile::parse_profile_file(*engine_profile);
    if (!parsed)
      throw util::FatalError(fmt::format("{} on {}: the QEMU engine's profile: {}",
                                         out.image.configuration, out.image.board,
                                         parsed.error().message));
    out.profiles = std::move(*parsed);
  } else {
    out.profiles = tracker->finish();
  }
  auto debug = elf::DebugInfo::open(elf_path);
  if (!debug) throw util::FatalError(debug.error().message);
  profile::symbolize(out.profiles, *debug);
  out.elf_path = elf_path;
  out.profiles.source = out.image.configuration + " on " + out.image.board;
  out.profiles.object = std::filesystem::absolute(elf_path).string();
  out.profiles.board = out.image.board;
  out.profiles.clock_hz = out.image.provenance.clock_hz;
  out.profiles.timing_model = out.image.provenance.timing_model;
  return out;
}

void register_profile_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<ProfileFlags>();
  auto* cmd = app.add_subcommand(
      "profile", "Where an operation's cycles go: call graph from the simulator, per function "
                 "and source line, exported for speedscope, Perfetto, flamegraph.pl, KCachegrind");
  cmd->add_option("target", flags->target,
                  "Suite name or path (default: default), or a bare-metal ELF file");
  cmd->add_option("--config", flags->configuration, "Configuration (default: the suite's first)");
  cmd->add_option("--op", flags->operation, "Operation to profile (required for a suite)");
  cmd->add_option("--board", flags->board,
                  "Board: a built-in name, or a board description file (board.toml format). "
                  "Default: the suite's first; for an ELF, its core's sim board with the ELF's "
                  "own memory map");
  cmd->add_option("--runs", flags->runs, "Executions of the operation to sum (default 1)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--format", flags->formats,
                  "speedscope, perfetto, folded, callgrind or json (fathom's per-function table); "
                  "repeatable, paired in order with --out")
      ->check(CLI::IsMember(profile::profile_writer_formats()))
      ->allow_extra_args(false)
      ->take_all();
  cmd->add_option("--out", flags->out_dir,
                  "Write one file per --format into this directory (created if missing; not a "
                  "file): CONFIG.OP.speedscope.json, .perfetto.json, .folded, .profile.json, "
                  "callgrind.out.CONFIG.OP (ELF: the file's stem instead of CONFIG.OP)");
  cmd->add_flag("--whole-run", flags->whole_run,
                "Also include the whole image run (harness, KAT) as a second profile");
  cmd->add_flag("--fresh", flags->fresh,
                "Profile again instead of reading the profile back from the result cache");
  cmd->add_option("--top", flags->top, "Functions in the printed summary (default 15; 0: all)");
  cmd->add_option("--function", flags->functions,
                  "ELF mode: report the calls of this function (count, min, median, mean, max of "
                  "cycles and instructions, deepest stack) and profile them (e.g. benchmark); "
                  "repeatable")
      ->allow_extra_args(false);
  cmd->add_flag("--no-inline", flags->no_inline,
                "Leave inlined functions in the function they were inlined into (by default "
                "each becomes a '(inlined)' frame under it, from DWARF)");
  cmd->add_option("--budget", flags->cycle_budget, "ELF mode: stop after this many cycles");
  cmd->add_option("--qemu-engine", flags->qemu_engine,
                  "model: profile on QEMU 10 with fathom's engine, which runs the same call "
                  "tracker in its plugin (QEMU boards; docs/QEMU-ENGINE.md)")
      ->check(CLI::IsMember({"model"}));
  cmd->callback([flags, &state] {
    auto input = classify_profile_input(flags->target);
    if (!input)
      throw util::FatalError(input.error().message,
                             input.error().is_usage ? kExitUsage : kExitFailure);
    if (!flags->qemu_engine.empty() && *input == ProfileInput::kElf)
      throw util::FatalError("--qemu-engine profiles a suite's image on a QEMU board; a bare "
                             "ELF file runs on the simulator",
                             kExitUsage);
    state.exit_code = *input == ProfileInput::kElf ? profile_elf(*flags) : profile_suite(*flags);
  });
}

}  // namespace fathom::cli
