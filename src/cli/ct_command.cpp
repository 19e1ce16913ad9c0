// `fathom ct`: does this build leak its secrets through timing? Runs each operation once per
// variant of its secret (the workload's `secret` hook, its public inputs fixed) on the
// simulator and reports every cycle difference (analysis/timing_leak.h, docs/CT.md). Exit 4
// when a leak is found, so CI can gate on it.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>

#include "analysis/timing_leak.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/ct_allowlist.h"
#include "cli/paths.h"
#include "cli/profile_session.h"
#include "cli/suite_session.h"
#include "cli/taint_check.h"
#include "compare/diagnosis.h"
#include "report/summary.h"
#include "report/text_table.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/terminal.h"

namespace fathom::cli {
namespace {

using analysis::OperationTiming;
using analysis::TimingVerdict;

constexpr int kCtSchemaVersion = 1;

struct CtFlags {
  std::string suite;
  std::vector<std::string> configurations;
  std::vector<std::string> operations;
  std::vector<std::string> boards;
  int64_t variants = 32;
  std::string format = "table";
  int64_t jobs = 0;
  bool explain = true;
  bool taint = true;
  bool fresh = false;  // --fresh: measure every variant again, whatever the result cache holds
  std::string allow;  // --allow FILE
};

using Taints = std::map<size_t, TaintCheck>;  // by index in the timings

std::string where(const TaintSite& s) {
  std::string out = s.function.empty() ? fmt::format("0x{:08x}", s.finding.pc)
                                       : fmt::format("{}+0x{:x}", s.function, s.offset);
  if (!s.file.empty())
    out += fmt::format(" ({}:{})", std::filesystem::path(s.file).filename().string(), s.line);
  return out;
}

std::string by_class(const TaintCheck& c) {
  std::string out;
  for (int i = 0; i < profile::kTaintClasses; ++i) {
    const auto cls = static_cast<profile::TaintClass>(i);
    if (const uint64_t n = c.count(cls); n > 0)
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", profile::taint_class_name(cls), n);
  }
  return out;
}

constexpr size_t kTaintSitesShown = 8;

void print_taint(const std::vector<OperationTiming>& timings, const Taints& taints) {
  if (taints.empty()) return;
  std::cout << "\ntaint tracking (one run of secret variant 0, instruction by instruction):\n";
  using report::ColumnFit;
  report::TextTable table({{"operation", false, ColumnFit::kShrink},
                           {"config", false, ColumnFit::kShrink},
                           {"board", false, ColumnFit::kShrink},
                           {"verdict"},
                           {"sites", true},
                           {"tainted", true},
                           {"findings by class", false, ColumnFit::kShrink},
                           {"first finding", false, ColumnFit::kOverflow}});
  for (const auto& [i, c] : taints) {
    const bool checked = c.verdict != TaintVerdict::kNotChecked;
    std::string first = c.reason;
    for (const TaintSite& f : c.findings)
      if (f.allowed.empty()) {
        first = fmt::format("{} {} on {}: {}", profile::taint_class_name(f.finding.cls),
                            f.instruction, f.finding.operand, where(f));
        break;
      }
    if (c.verdict == TaintVerdict::kAllowed) first = "every finding allowed (--allow)";
    table.add_row({timings[i].operation, c.configuration, c.board, to_string(c.verdict),
                   checked ? report::with_thousands(c.findings.size()) : "",
                   checked ? report::with_thousands(c.tainted_instructions) : "", by_class(c),
                   first});
  }
  table.write(std::cout, util::terminal_columns(STDOUT_FILENO));
  for (const auto& [i, c] : taints) {
    if (c.findings.empty()) continue;
    std::cout << fmt::format("\n{} ({} on {}): {} site{} where the time may depend on the secret\n",
                             c.operation, c.configuration, c.board, c.findings.size(),
                             c.findings.size() == 1 ? "" : "s");
    for (size_t k = 0; k < c.findings.size() && k < kTaintSitesShown; ++k) {
      const TaintSite& f = c.findings[k];
      std::cout << fmt::format("  {:<17} {:>7}×  {:<28} {} on {}{}\n",
                               profile::taint_class_name(f.finding.cls),
                               report::with_thousands(f.finding.count), f.instruction, where(f),
                               f.finding.operand,
                               f.allowed.empty() ? "" : " — allowed: " + f.allowed);
    }
    if (c.findings.size() > kTaintSitesShown)
      std::cout << fmt::format("  ... and {} more (--format json lists them all)\n",
                               c.findings.size() - kTaintSitesShown);
  }
}

nlohmann::ordered_json taint_json(const TaintCheck& c) {
  nlohmann::ordered_json t;
  t["verdict"] = to_string(c.verdict);
  t["reason"] = c.reason.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(c.reason);
  t["marked_bytes"] = c.marked_bytes;
  t["tainted_instructions"] = c.tainted_instructions;
  t["allowed_sites"] = std::count_if(c.findings.begin(), c.findings.end(),
                                     [](const TaintSite& f) { return !f.allowed.empty(); });
  t["by_class"] = nlohmann::ordered_json::object();
  for (int i = 0; i < profile::kTaintClasses; ++i) {
    const auto cls = static_cast<profile::TaintClass>(i);
    t["by_class"][profile::taint_class_name(cls)] = c.count(cls);
  }
  t["findings"] = nlohmann::ordered_json::array();
  for (const auto& f : c.findings)
    t["findings"].push_back({{"class", profile::taint_class_name(f.finding.cls)},
                             {"pc", fmt::format("0x{:08x}", f.finding.pc)},
                             {"function", f.function},
                             {"offset", f.offset},
                             {"file", f.file},
                             {"line", f.line},
                             {"instruction", f.instruction},
                             {"operand", f.finding.operand},
                             {"count", f.finding.count},
                             {"allowed", f.allowed.empty() ? nlohmann::ordered_json(nullptr)
                                                           : nlohmann::ordered_json(f.allowed)}});
  return t;
}

// Where the fastest and slowest variant of a leaking operation part: the two variants profiled
// alone (the call tracker on the simulator) and compared per function (compare/diagnosis.h,
// with no threshold: one cycle is a change).
struct Divergence {
  uint32_t fast_variant = 0, slow_variant = 0;
  uint64_t profile_cycles_fast = 0, profile_cycles_slow = 0;
  std::vector<compare::FunctionDelta> functions;  // by share of the difference
  std::string error;  // why there is no profile comparison; empty otherwise
};

constexpr size_t kDivergenceFunctions = 5;

Divergence explain(const model::Suite& suite, const OperationTiming& t, bool fresh) {
  Divergence d;
  // Each variant is profiled alone, as the first run. A leak found by pairing (the runs vary
  // with the secret fixed too) is explained by variant 0 against the variant that differed most
  // from the control: alone, both take the same random draws, so their profiles differ only by
  // the secret. The faster of the two is "fast".
  d.fast_variant = t.paired ? 0 : t.fastest_variant;
  d.slow_variant = t.paired ? t.paired->max_run : t.slowest_variant;
  try {
    ProfiledImage fast = profile_image(suite, t.configuration, t.board, {t.operation}, 1, false,
                                       d.fast_variant, false, fresh);
    ProfiledImage slow = profile_image(suite, t.configuration, t.board, {t.operation}, 1, false,
                                       d.slow_variant, false, fresh);
    compare::DiagnosisOptions options;
    options.threshold_percent = 0;
    options.coverage = 1.0;
    options.max_functions = kDivergenceFunctions;
    auto diagnosis = [&]() -> std::optional<compare::OperationDiagnosis> {
      for (auto& op : compare::diagnose(fast.profiles, slow.profiles, options))
        if (op.operation == t.operation) return std::move(op);
      return std::nullopt;
    };
    auto op = diagnosis();
    if (op && op->cycles_a > op->cycles_b) {
      std::swap(fast, slow);
      std::swap(d.fast_variant, d.slow_variant);
      op = diagnosis();
    }
    if (op) {
      d.profile_cycles_fast = op->cycles_a;
      d.profile_cycles_slow = op->cycles_b;
      d.functions = std::move(op->functions);
      return d;
    }
    d.error = "the profiles have no entry for the operation";
  } catch (const util::FatalError& e) {
    d.error = e.what();
  }
  return d;
}

std::string signed_cycles(int64_t v) {
  return (v > 0 ? "+" : v < 0 ? "−" : "") + report::with_thousands(static_cast<uint64_t>(v < 0 ? -v : v));
}

void print_divergence(const OperationTiming& t, const Divergence& d) {
  if (t.paired && d.error.empty())
    std::cout << fmt::format("\n{} ({} on {}): variant {} ({} cycles) against variant {} ({} "
                             "cycles), each profiled alone with the same random draws",
                             t.operation, t.configuration, t.board, d.fast_variant,
                             report::with_thousands(d.profile_cycles_fast), d.slow_variant,
                             report::with_thousands(d.profile_cycles_slow));
  else
    std::cout << fmt::format("\n{} ({} on {}): variant {} ({} cycles) against variant {} ({} "
                             "cycles)",
                             t.operation, t.configuration, t.board, d.fast_variant,
                             report::with_thousands(t.min_cycles), d.slow_variant,
                             report::with_thousands(t.max_cycles));
  if (!d.error.empty()) {
    std::cout << fmt::format(": not profiled ({})\n", d.error);
    return;
  }
  if (d.functions.empty()) {
    std::cout << ": their profiles do not differ per function\n";
    return;
  }
  std::cout << ", where they differ:\n";
  using report::ColumnFit;
  report::TextTable table({{"function", false, ColumnFit::kShrink},
                           {"self fast", true},
                           {"self slow", true},
                           {"difference", true},
                           {"calls", true}});
  for (const auto& f : d.functions)
    table.add_row({f.function, report::with_thousands(static_cast<uint64_t>(f.exclusive_a)),
                   report::with_thousands(static_cast<uint64_t>(f.exclusive_b)),
                   signed_cycles(f.exclusive_b - f.exclusive_a),
                   f.calls_a == f.calls_b ? report::with_thousands(f.calls_a)
                                          : fmt::format("{} → {}", f.calls_a, f.calls_b)});
  table.write(std::cout, util::terminal_columns(STDOUT_FILENO));
}

std::string cycles_range(const OperationTiming& t) {
  if (t.verdict == TimingVerdict::kNotChecked) return "";
  if (t.min_cycles == t.max_cycles) return report::with_thousands(t.min_cycles);
  return report::with_thousands(t.min_cycles) + "–" + report::with_thousands(t.max_cycles);
}

void print_table(const std::vector<OperationTiming>& timings, uint32_t variants,
                 const std::map<size_t, Divergence>& divergences, const Taints& taints) {
  using report::ColumnFit;
  report::TextTable table({{"operation", false, ColumnFit::kShrink},
                           {"config", false, ColumnFit::kShrink},
                           {"board", false, ColumnFit::kShrink},
                           {"verdict"},
                           {"variants", true},
                           {"cycles", true},
                           {"spread", true},
                           {"distinct", true},
                           {"note", false, ColumnFit::kOverflow}});
  for (const auto& t : timings) {
    std::string note = t.reason;
    const std::string control_spread =
        t.control ? report::with_thousands(t.control->max_cycles - t.control->min_cycles) : "";
    if (t.verdict == TimingVerdict::kLeak && t.paired)
      note = fmt::format("variant {} fastest, variant {} slowest; with the secret fixed the runs "
                         "vary too ({} cycles), but {} of {} variants differ from that run at "
                         "their position (up to {} cycles, variant {})",
                         t.fastest_variant, t.slowest_variant, control_spread,
                         t.paired->differing_runs, t.variants,
                         report::with_thousands(t.paired->max_cycles), t.paired->max_run);
    else if (t.verdict == TimingVerdict::kLeak)
      note = fmt::format("variant {} fastest, variant {} slowest{}", t.fastest_variant,
                         t.slowest_variant,
                         t.control ? "; constant with the secret fixed" : "; " + t.reason);
    else if (t.verdict == TimingVerdict::kVaries && t.paired)
      note = fmt::format("varies as much with the secret fixed ({} cycles), every variant as "
                         "that run at its position: per-run randomness or state, not the secret",
                         control_spread);
    else if (t.verdict == TimingVerdict::kVaries)
      note = fmt::format("also varies with the secret fixed ({} cycles) and {}: not attributable "
                         "by timing",
                         control_spread, t.reason);
    const bool checked = t.verdict != TimingVerdict::kNotChecked;
    table.add_row({t.operation.empty() ? "(image)" : t.operation, t.configuration, t.board,
                   std::string(analysis::to_string(t.verdict)),
                   checked ? report::with_thousands(t.variants) : "", cycles_range(t),
                   checked ? report::with_thousands(t.max_cycles - t.min_cycles) : "",
                   checked ? report::with_thousands(t.distinct_cycle_counts) : "", note});
  }
  table.write(std::cout, util::terminal_columns(STDOUT_FILENO));
  size_t leaks = 0, constant = 0, varies = 0, unchecked = 0;
  for (const auto& t : timings) {
    if (t.verdict == TimingVerdict::kLeak) ++leaks;
    else if (t.verdict == TimingVerdict::kConstant) ++constant;
    else if (t.verdict == TimingVerdict::kVaries) ++varies;
    else ++unchecked;
  }
  const size_t checked = leaks + constant + varies;
  std::cout << fmt::format(
      "\n{} operation{} checked with {} secret variants each: {} leak{}, {} constant, {} "
      "varying with the secret fixed; {} not checked\n",
      checked, checked == 1 ? "" : "s", variants, leaks, leaks == 1 ? "" : "s", constant, varies,
      unchecked);
  for (const auto& [i, d] : divergences) print_divergence(timings[i], d);
  print_taint(timings, taints);
  std::cout << "\n";
  std::cout << "differential timing on the simulator: any cycle difference between variants is "
               "a finding; constant means no difference over these variants and paths, not a "
               "proof. Taint tracking: an instruction whose time or address depends on a "
               "declared secret is a finding; \"no finding\" covers the path variant 0 took "
               "(docs/CT.md)\n";
}

void print_json(const std::vector<OperationTiming>& timings, uint32_t variants,
                const std::string& suite, const std::map<size_t, Divergence>& divergences,
                const Taints& taints) {
  nlohmann::ordered_json out;
  out["schema_version"] = kCtSchemaVersion;
  out["suite"] = suite;
  out["variants"] = variants;
  out["operations"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < timings.size(); ++i) {
    const OperationTiming& t = timings[i];
    nlohmann::ordered_json o;
    o["configuration"] = t.configuration;
    o["board"] = t.board;
    o["operation"] = t.operation.empty() ? nlohmann::ordered_json(nullptr)
                                         : nlohmann::ordered_json(t.operation);
    o["verdict"] = std::string(analysis::to_string(t.verdict));
    o["reason"] = t.reason.empty() ? nlohmann::ordered_json(nullptr)
                                   : nlohmann::ordered_json(t.reason);
    const bool checked = t.verdict != TimingVerdict::kNotChecked;
    auto number = [&](uint64_t v) {
      return checked ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
    };
    o["variants"] = number(t.variants);
    o["min_cycles"] = number(t.min_cycles);
    o["max_cycles"] = number(t.max_cycles);
    o["spread_cycles"] = number(t.max_cycles - t.min_cycles);
    o["distinct_cycle_counts"] = number(t.distinct_cycle_counts);
    o["fastest_variant"] = number(t.fastest_variant);
    o["slowest_variant"] = number(t.slowest_variant);
    o["fastest_instructions"] = t.fastest_instructions ? nlohmann::ordered_json(*t.fastest_instructions)
                                                       : nlohmann::ordered_json(nullptr);
    o["control_spread_cycles"] =
        t.control ? nlohmann::ordered_json(t.control->max_cycles - t.control->min_cycles)
                  : nlohmann::ordered_json(nullptr);
    o["control_distinct_cycle_counts"] =
        t.control ? nlohmann::ordered_json(t.control->distinct_cycle_counts)
                  : nlohmann::ordered_json(nullptr);
    o["paired_differing_variants"] =
        t.paired ? nlohmann::ordered_json(t.paired->differing_runs) : nlohmann::ordered_json(nullptr);
    o["paired_max_cycles"] =
        t.paired ? nlohmann::ordered_json(t.paired->max_cycles) : nlohmann::ordered_json(nullptr);
    o["paired_max_variant"] =
        t.paired ? nlohmann::ordered_json(t.paired->max_run) : nlohmann::ordered_json(nullptr);
    o["slowest_instructions"] = t.slowest_instructions ? nlohmann::ordered_json(*t.slowest_instructions)
                                                       : nlohmann::ordered_json(nullptr);
    nlohmann::ordered_json divergence = nullptr;
    if (const auto at = divergences.find(i); at != divergences.end()) {
      const Divergence& d = at->second;
      divergence = nlohmann::ordered_json::object();
      divergence["fast_variant"] = d.fast_variant;
      divergence["slow_variant"] = d.slow_variant;
      divergence["error"] = d.error.empty() ? nlohmann::ordered_json(nullptr)
                                            : nlohmann::ordered_json(d.error);
      divergence["profile_cycles_fast"] = d.profile_cycles_fast;
      divergence["profile_cycles_slow"] = d.profile_cycles_slow;
      divergence["functions"] = nlohmann::ordered_json::array();
      for (const auto& f : d.functions)
        divergence["functions"].push_back({{"function", f.function},
                                           {"self_cycles_fast", f.exclusive_a},
                                           {"self_cycles_slow", f.exclusive_b},
                                           {"total_cycles_fast", f.inclusive_a},
                                           {"total_cycles_slow", f.inclusive_b},
                                           {"calls_fast", f.calls_a},
                                           {"calls_slow", f.calls_b}});
    }
    o["divergence"] = std::move(divergence);
    const auto taint = taints.find(i);
    o["taint"] = taint == taints.end() ? nlohmann::ordered_json(nullptr) : taint_json(taint->second);
    out["operations"].push_back(std::move(o));
  }
  std::cout << out.dump(2) << "\n";
}

int run(const CtFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite);
  std::vector<AllowEntry> allow;
  if (!flags.allow.empty()) {
    auto loaded = load_allowlist(flags.allow);
    if (!loaded) throw util::FatalError(loaded.error().message, kExitUsage);
    allow = std::move(*loaded);
  }
  pipeline::RunOptions options;
  options.configurations = flags.configurations;
  options.operations = flags.operations;
  options.boards = flags.boards;
  // The simulator: deterministic, so one cycle of difference is a finding (a board's noise
  // would hide it). Its variants' measurements are kept in the result cache with the secret
  // parameters in their key (pipeline/result_cache.h), so the same image, variants and fathom
  // executable read them back; --fresh measures every variant again.
  options.target.kind = model::TargetKind::kSim;
  options.runs = static_cast<uint32_t>(flags.variants);
  // One warm-up run (variant 0), so that work done once (a library's lazy initialisation, the
  // heap's first growth) is not in timed run 0 and taken for a secret's effect.
  options.warmup = 1;
  options.secret_variants = true;
  options.fresh = flags.fresh;
  if (auto results = result_cache_root()) options.result_cache_dir = *results;
  options.jobs = static_cast<unsigned>(flags.jobs);
  pipeline::RunCounts counts;
  const model::RunResult result = run_suite_or_throw(suite, options, &counts);
  // Said like `fathom run` says it (pipeline::RunCounts): a reused measurement is the one made
  // then.
  auto note_reused = [](const pipeline::RunCounts& c, const char* what) {
    if (c.results_reused > 0 && util::notes_enabled())
      std::cerr << fmt::format("fathom ct: {} of {} image{}: {} read back from the result "
                               "cache (--fresh measures again)\n",
                               c.results_reused, c.images, c.images == 1 ? "" : "s", what);
  };
  note_reused(counts, "variants");
  // The control: the operations whose variants differed, run again with variant 0 in every run.
  std::set<std::string> differing_ops, differing_configurations, differing_boards;
  for (const auto& t : analysis::timing_verdicts(result))
    if (t.verdict == TimingVerdict::kLeak) {
      differing_ops.insert(t.operation);
      differing_configurations.insert(t.configuration);
      differing_boards.insert(t.board);
    }
  std::optional<model::RunResult> control;
  if (!differing_ops.empty()) {
    pipeline::RunOptions fixed = options;
    fixed.operations.assign(differing_ops.begin(), differing_ops.end());
    fixed.configurations.assign(differing_configurations.begin(), differing_configurations.end());
    fixed.boards.assign(differing_boards.begin(), differing_boards.end());
    fixed.secret_fixed = true;
    pipeline::RunCounts control_counts;
    control = run_suite_or_throw(suite, fixed, &control_counts);
    note_reused(control_counts, "controls");
  }
  const auto timings = analysis::timing_verdicts(result, control ? &*control : nullptr);
  const uint32_t variants = static_cast<uint32_t>(flags.variants);
  std::map<size_t, Divergence> divergences;
  if (flags.explain)
    for (size_t i = 0; i < timings.size(); ++i)
      if (timings[i].verdict == TimingVerdict::kLeak)
        divergences[i] = explain(suite, timings[i], flags.fresh);
  // Taint tracking: every operation that declared a secret, once, instruction by instruction.
  Taints taints;
  if (flags.taint)
    for (size_t i = 0; i < timings.size(); ++i) {
      const OperationTiming& t = timings[i];
      if (t.operation.empty() || t.verdict == TimingVerdict::kNotChecked) continue;
      taints[i] = taint_check(suite, t.configuration, t.board, t.operation);
      apply_allowlist(allow, taints[i]);
    }
  if (flags.format == "json")
    print_json(timings, variants, result.suite, divergences, taints);
  else
    print_table(timings, variants, divergences, taints);
  // A stale allowance hides nothing, but the user should know it no longer matches.
  if (flags.taint)
    for (const AllowEntry& e : allow)
      if (e.matched == 0)
        std::cerr << fmt::format("fathom ct: {}: this [[allow]] ({}) matched no finding\n",
                                 e.where, e.function);
  bool leak = false, image_failed = false;
  for (const auto& t : timings) leak = leak || t.verdict == TimingVerdict::kLeak;
  for (const auto& [i, c] : taints) leak = leak || c.verdict == TaintVerdict::kLeak;
  for (const auto& image : result.images) image_failed = image_failed || !image.error.empty();
  if (leak) return kExitLeak;
  return image_failed ? kExitFailure : kExitOk;
}

}  // namespace

void register_ct_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<CtFlags>();
  auto* cmd = app.add_subcommand(
      "ct", "Check that operations take the same cycles whatever their secret (differential "
            "timing and taint tracking on the simulator); exit 4 on a leak");
  cmd->add_option("suite", flags->suite,
                  "Suite name (in suites/) or path to a suite .toml file; default: default");
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--board", flags->boards,
                  "Check on these boards instead of the suite's (repeatable; see fathom list)")
      ->expected(1, -1);
  cmd->add_option("--variants", flags->variants,
                  "Secret variants per operation, one timed run each (default 32)")
      ->check(CLI::Range(2, 100000));
  auto* format = cmd->add_option("--format", flags->format, "Output format: table, json")
                     ->check(CLI::IsMember({"table", "json"}));
  state.json_errors.add(*cmd, *format);
  cmd->add_flag("!--no-explain", flags->explain,
               "Do not profile a leaking operation's fastest and slowest variant to say in which "
               "functions they differ");
  cmd->add_flag("!--no-taint", flags->taint,
               "Skip taint tracking (a run per operation, instruction by instruction, following "
               "the declared secret bytes)");
  cmd->add_flag("--fresh", flags->fresh,
                "Measure every variant again even if the result cache holds this image's "
                "(the simulator is deterministic: the same image, variants and fathom executable "
                "measure alike)");
  cmd->add_option("--allow", flags->allow,
                  "Accept the taint findings this TOML file lists, each with a reason "
                  "(docs/CT.md \"Accepting findings\")");
  cmd->add_option("-j,--jobs", flags->jobs,
                  "Images built and run at once (default: the number of online CPUs)")
      ->check(CLI::Range(1, 1024));
  cmd->callback([flags, &state] { state.exit_code = run(*flags); });
}

}  // namespace fathom::cli
