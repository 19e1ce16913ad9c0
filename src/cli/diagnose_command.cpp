#include <fmt/core.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <set>

#include "build/library_description.h"
#include "cli/cli.h"
#include "cli/paths.h"
#include "cli/commands.h"
#include "cli/profile_session.h"
#include "cli/suite_session.h"
#include "compare/diagnosis.h"
#include "report/summary.h"
#include "report/text_table.h"
#include "util/error.h"
#include "util/terminal.h"

namespace fathom::cli {
namespace {

struct DiagnoseFlags {
  std::string suite;
  std::vector<std::string> configurations;
  std::vector<std::string> operations;
  std::string board;
  double threshold = 0.5;
  double coverage = 90;
  std::string qemu_engine;  // --qemu-engine model: both profiles on QEMU 10 with the engine
  bool fresh = false;       // profile both again even if the result cache holds their profiles
};

// Operations with timing (their KAT passed) in the image: only those are compared.
std::set<std::string> timed(const model::ImageResult& image) {
  std::set<std::string> out;
  for (const auto& op : image.operations)
    if (op.has_timing()) out.insert(op.operation);
  return out;
}

// The primitive groups of a configuration's image: its library's and those of every library
// linked in (`with_libraries`), merged as `fathom run` merges them. Empty when none define any.
profile::PrimitiveGroups image_groups(const model::Suite& suite, const std::string& configuration) {
  profile::PrimitiveGroups groups;
  for (const auto& cfg : suite.configurations) {
    if (cfg.name != configuration) continue;
    std::vector<std::string> libraries = {cfg.library};
    libraries.insert(libraries.end(), cfg.with_libraries.begin(), cfg.with_libraries.end());
    for (const auto& name : libraries) {
      auto lib = build::load_library(repository_root() / "firmware", name);
      if (!lib) throw util::FatalError(lib.error().message, kExitFailure);
      for (const auto& [group, patterns] : lib->primitive_groups) {
        auto& into = groups[group];
        into.insert(into.end(), patterns.begin(), patterns.end());
      }
    }
  }
  return groups;
}

// Calls per execution: whole, or with one decimal when the mean is not.
std::string calls_text(double calls) {
  return calls == std::floor(calls) ? report::with_thousands(static_cast<uint64_t>(calls))
                                    : fmt::format("{:.1f}", calls);
}

// Counts as people read them: with thousands separators (1,234,567).
std::string n(uint64_t value) { return report::with_thousands(value); }
std::string n(int64_t value) {
  return value < 0 ? "-" + report::with_thousands(static_cast<uint64_t>(-value))
                   : report::with_thousands(static_cast<uint64_t>(value));
}

// Why an operation has no timing, as the run table says it: its error, the reason it is not
// timed (a library gate's self-test passes its KAT and has nothing to time), or its KAT.
std::string no_timing_reason(const model::OperationResult& op) {
  if (!op.error.empty()) return op.error;
  if (!op.not_timed.empty()) return "not timed: " + op.not_timed;
  switch (op.kat) {
    case model::KatStatus::kFailed: return "its known-answer test failed";
    case model::KatStatus::kNotRun: return "its known-answer test did not run";
    case model::KatStatus::kPassed: break;
  }
  return "it has no timing";
}

int diagnose(const DiagnoseFlags& flags) {
  if (flags.configurations.size() != 2)
    throw util::FatalError("fathom diagnose needs exactly two --config (A, then B)", kExitUsage);
  const model::Suite suite = load_suite_or_throw(flags.suite);
  const bool engine = flags.qemu_engine == "model";
  ProfiledImage a =
      profile_image(suite, flags.configurations[0], flags.board, flags.operations, 1, engine,
                    std::nullopt, false, flags.fresh);
  ProfiledImage b =
      profile_image(suite, flags.configurations[1], flags.board, flags.operations, 1, engine,
                    std::nullopt, false, flags.fresh);
  // Correctness gates comparison too: drop the profiles of operations whose KAT failed.
  const std::set<std::string> ta = timed(a.image), tb = timed(b.image);
  auto keep_timed = [](profile::ProfileSet& set, const std::set<std::string>& ok) {
    std::erase_if(set.profiles, [&](const profile::Profile& p) { return !ok.count(p.name); });
  };
  keep_timed(a.profiles, ta);
  keep_timed(b.profiles, tb);
  for (const auto& image : {&a.image, &b.image})
    for (const auto& op : image->operations)
      if (!op.has_timing())
        fmt::print("{}: {} not compared: {}\n", image->configuration, op.operation,
                   no_timing_reason(op));

  compare::DiagnosisOptions options;
  options.threshold_percent = flags.threshold;
  options.coverage = flags.coverage / 100.0;
  const auto result = compare::diagnose(a.profiles, b.profiles, options);

  // How many executions each operation's profile sums: the timed ones (one per operation here,
  // or the operation's own minimum of distinct inputs); a board's untimed memory run would be
  // left out (profile/tracker_options.h).
  auto executions = [](const profile::ProfileSet& set, const std::string& operation) -> size_t {
    for (const auto& p : set.profiles)
      if (p.name == operation) return p.execution_cycles.size();
    return 0;
  };
  fmt::print("A = {} on {}, B = {} on {} (profiled cycles of the timed executions, one per "
             "operation unless its row says otherwise, nothing untimed included; unchanged = "
             "within {}%)\n\n",
             a.image.configuration, a.image.board, b.image.configuration, b.image.board,
             flags.threshold);
  const size_t width = util::terminal_columns(STDOUT_FILENO);
  using report::ColumnFit;
  auto ratio = [](auto a, auto b) {
    return fmt::format("{:.2f}x", a ? static_cast<double>(b) / static_cast<double>(a) : 0.0);
  };
  report::TextTable operations({{"operation", false, ColumnFit::kShrink},
                                {"A [cycles]", true},
                                {"B [cycles]", true},
                                {"B/A", true},
                                {"verdict", false, ColumnFit::kOverflow}});
  for (const auto& d : result) {
    const size_t na = executions(a.profiles, d.operation), nb = executions(b.profiles, d.operation);
    const std::string runs =
        na == 1 && nb == 1 ? ""
        : na == nb         ? fmt::format("  ({} executions each)", na)
                           : fmt::format("  ({} executions in A, {} in B)", na, nb);
    operations.add_row({d.operation, n(d.cycles_a), n(d.cycles_b), ratio(d.cycles_a, d.cycles_b),
                        (d.changed ? (d.cycles_b > d.cycles_a ? "SLOWER" : "FASTER") : "unchanged") +
                            runs});
  }
  operations.write(std::cout, width);
  // Where it moved at the level of the images' primitive groups (hostap's crypto API for SAE,
  // the library's bignum / SHA-2 / ...): one table, every group that ran.
  profile::PrimitiveGroups groups = image_groups(suite, a.image.configuration);
  for (const auto& [group, patterns] : image_groups(suite, b.image.configuration)) {
    auto& into = groups[group];
    for (const auto& p : patterns)
      if (std::find(into.begin(), into.end(), p) == into.end()) into.push_back(p);
  }
  if (!groups.empty()) {
    const auto by_group = compare::diagnose_groups(a.profiles, b.profiles, groups, flags.threshold);
    fmt::print("\nprimitive groups (cycles with the group's functions on the call path and their "
               "outermost calls, per execution; moved = beyond {}%)\n",
               flags.threshold);
    report::TextTable table({{"operation", false, ColumnFit::kShrink},
                             {"group", false, ColumnFit::kShrink},
                             {"A [cycles]", true},
                             {"B [cycles]", true},
                             {"B/A", true},
                             {"calls A", true},
                             {"calls B", true},
                             {"verdict"}});
    for (const auto& op : by_group)
      for (const auto& g : op.groups)
        table.add_row({op.operation, g.group, n(g.cycles_a), n(g.cycles_b),
                       ratio(g.cycles_a, g.cycles_b), calls_text(g.calls_a),
                       calls_text(g.calls_b),
                       g.changed ? (g.cycles_b > g.cycles_a ? "moved: slower" : "moved: faster")
                                 : "unchanged"});
    table.write(std::cout, width);
  }
  for (const auto& d : result) {
    if (!d.changed) continue;
    fmt::print("\n{}: {}{} cycles; these functions explain {:.1f}% of the change (exclusive "
               "cycles, ranked by share)\n",
               d.operation, d.cycles_b >= d.cycles_a ? "+" : "-",
               n(d.cycles_b >= d.cycles_a ? d.cycles_b - d.cycles_a : d.cycles_a - d.cycles_b),
               100.0 * d.covered);
    report::TextTable functions({{"share", true},
                                 {"excl A", true},
                                 {"excl B", true},
                                 {"incl A", true},
                                 {"incl B", true},
                                 {"calls A", true},
                                 {"calls B", true},
                                 {"function", false, ColumnFit::kOverflow}});
    for (const auto& f : d.functions)
      functions.add_row({fmt::format("{:.1f}%", 100.0 * f.share), n(f.exclusive_a),
                         n(f.exclusive_b), n(f.inclusive_a), n(f.inclusive_b), n(f.calls_a),
                         n(f.calls_b), f.function});
    functions.write(std::cout, width, "  ");
    const double total = static_cast<double>(d.cycles_b) - static_cast<double>(d.cycles_a);
    fmt::print("  where the change sits (inclusive cycles grew by >= 25% of it):\n");
    for (const auto& f : d.grew_inclusive)
      fmt::print("    {:<44} {:>14} -> {:>14}  ({:.1f}% of the change, calls {} -> {})\n",
                 f.function, n(f.inclusive_a), n(f.inclusive_b),
                 100.0 * static_cast<double>(f.inclusive_b - f.inclusive_a) / total, n(f.calls_a),
                 n(f.calls_b));
    for (const auto& f : d.vanished)
      fmt::print("    gone in B: {:<33} {:>14} cycles in A ({} calls)\n", f.function,
                 n(f.inclusive_a), n(f.calls_a));
    if (d.controls.empty()) {
      fmt::print("  control: no unchanged operation runs these functions\n");
    } else {
      for (const auto& c : d.controls)
        fmt::print("  control: {} did not move ({} -> {} cycles) although it runs {}\n",
                   c.operation, n(c.cycles_a), n(c.cycles_b), fmt::format("{}", fmt::join(c.shared_functions, ", ")));
    }
  }
  return kExitOk;
}

}  // namespace

int diagnose_configurations(const std::string& suite, const std::vector<std::string>& configurations,
                            const std::vector<std::string>& operations, double threshold_percent) {
  DiagnoseFlags flags;
  flags.suite = suite;
  flags.configurations = configurations;
  flags.operations = operations;
  flags.threshold = threshold_percent;
  return diagnose(flags);
}

void register_diagnose_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<DiagnoseFlags>();
  auto* cmd = app.add_subcommand(
      "diagnose", "Profile two configurations and name the functions that explain each "
                  "operation that changed, with the unchanged operations sharing them as control");
  cmd->add_option("suite", flags->suite, "Suite name or path (default: default)");
  cmd->add_option("--config", flags->configurations, "The two configurations: A then B")
      ->expected(1, -1);
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--board", flags->board, "Board (default: the suite's first)");
  cmd->add_option("--threshold", flags->threshold, "Unchanged within this percent (default 0.5)");
  cmd->add_option("--coverage", flags->coverage,
                  "List functions until they explain this percent of a change (default 90)");
  cmd->add_flag("--fresh", flags->fresh,
                "Profile both configurations again instead of reading their profiles back from "
                "the result cache");
  cmd->add_option("--qemu-engine", flags->qemu_engine,
                  "model: profile both on QEMU 10 with fathom's engine (QEMU boards; "
                  "docs/QEMU-ENGINE.md)")
      ->check(CLI::IsMember({"model"}));
  cmd->callback([flags, &state] { state.exit_code = diagnose(*flags); });
}

}  // namespace fathom::cli
