// `fathom compare A B`: two runs side by side (stored runs or results files), and the CI
// regression gate.
#include <fmt/core.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/run_reference.h"
#include "compare/comparison.h"
#include "compare/result_file.h"
#include "history/run_store.h"
#include "report/text_table.h"
#include "util/error.h"
#include "util/terminal.h"

namespace fathom::cli {
namespace {

struct CompareFlags {
  std::string suite;                        // with two --config: run them on the spot
  std::vector<std::string> configurations;
  std::vector<std::string> operations;
  std::vector<std::string> runs;  // A and B, or only B with --baseline
  std::string baseline;
  double threshold_percent = 0.5;
  std::vector<std::string> fail_above;
  std::string format = "table";
  bool wide = false;  // --wide: both sides' stack and heap figures too
  std::string markdown_out;
  std::string db;
};

// One side of the comparison: a run loaded from the history, or a results file.
using Side = RunReference;

[[noreturn]] void throw_error(const util::Error& error) {
  throw util::FatalError(error.message, error.is_usage ? kExitUsage : kExitFailure);
}

Side load_side(LazyStore& store, const std::string& text) { return load_run_reference(store, text); }

std::string number_text(const std::optional<double>& value) {
  return value ? fmt::format("{:.0f}", *value) : "-";
}
std::string ratio_text(const compare::MetricComparison& m) {
  return m.ratio ? fmt::format("{:.3f}", *m.ratio) : "-";
}
std::string percent_text(const compare::MetricComparison& m) {
  return m.delta_percent ? fmt::format("{:+.2f}%", *m.delta_percent) : "-";
}
std::string verdict_text(const compare::MetricComparison& m) {
  return std::string(compare::verdict_name(m.verdict, m.metric));
}

std::string image_title(const compare::ImageComparison& image) {
  // A board's figures are never mixed up with a simulator's: a non-simulated side says so.
  auto where = [](const std::string& board, const std::string& target) {
    return target.empty() || target == "sim" ? board : board + " (" + target + ")";
  };
  const std::string a = image.configuration_a.empty()
                            ? "(none)"
                            : image.configuration_a + " on " + where(image.board_a, image.target_a);
  const std::string b = image.configuration_b.empty()
                            ? "(none)"
                            : image.configuration_b + " on " + where(image.board_b, image.target_b);
  return a == b ? a : a + " vs " + b;
}

std::string rules_text(const std::vector<compare::GateRule>& rules) {
  std::string out;
  for (const auto& rule : rules)
    out += fmt::format("{}{}% {}", out.empty() ? "" : ", ", rule.percent,
                       compare::metric_name(rule.metric));
  return out;
}

// "1 operation in both; 1 only in B, not compared" — said only when some were not compared.
std::string coverage_text(const compare::Coverage& c) {
  if (c.only_in_a == 0 && c.only_in_b == 0) return "";
  std::string out = fmt::format("{} operation{} in both", c.in_both, c.in_both == 1 ? "" : "s");
  std::string one_sided;
  if (c.only_in_a) one_sided += fmt::format("{} only in A", c.only_in_a);
  if (c.only_in_b)
    one_sided += fmt::format("{}{} only in B", one_sided.empty() ? "" : ", ", c.only_in_b);
  return out + "; " + one_sided + ", not compared";
}

// The closing line of both formats.
std::string summary_line(const compare::Comparison& comparison, size_t regression_count) {
  const std::string covered = coverage_text(compare::coverage(comparison));
  const std::string prefix = covered.empty() ? "" : covered + "; ";
  if (comparison.options.fail_above.empty()) return prefix + "no --fail-above gate given";
  return prefix + fmt::format("{} regressions above {}", regression_count,
                              rules_text(comparison.options.fail_above));
}

// One side's images and operations for the no-common-operation error, e.g.
// "  A (file a.json): mbedtls on sim-m33: sha256_64, hmac_sha256".
std::string contents_text(std::string_view label, const Side& side) {
  constexpr size_t kMaxNames = 8;
  std::string out = fmt::format("  {} ({}):", label, side.description);
  if (side.run.images.empty()) return out + " no images";
  for (size_t i = 0; i < side.run.images.size(); ++i) {
    const auto& image = side.run.images[i];
    out += fmt::format("{} {} on {}: ", i ? ";" : "", image.configuration, image.board);
    if (image.operations.empty()) out += "no operations";
    for (size_t k = 0; k < image.operations.size() && k < kMaxNames; ++k)
      out += (k ? ", " : "") + image.operations[k].operation;
    if (image.operations.size() > kMaxNames)
      out += fmt::format(" (and {} more)", image.operations.size() - kMaxNames);
  }
  return out;
}

void print_table(const Side& a, const Side& b, const compare::Comparison& comparison,
                 size_t regression_count, bool wide) {
  fmt::print("A: {}\nB: {}\nnoise threshold: {}%\n", a.description, b.description,
             comparison.options.threshold_percent);
  using report::ColumnFit;
  const size_t width = util::terminal_columns(STDOUT_FILENO);
  for (const auto& image : comparison.images) {
    fmt::print("\n{}  (flash bytes: {} -> {}, {})\n", image_title(image),
               number_text(image.flash.a), number_text(image.flash.b), verdict_text(image.flash));
    // Compact: the cycles in full, stack and heap by their verdicts; --wide: their figures too.
    std::vector<report::TextColumn> columns = {{"operation", false, ColumnFit::kShrink},
                                               {"A cycles", true},
                                               {"B cycles", true},
                                               {"ratio", true},
                                               {"delta", true},
                                               {"verdict"}};
    if (wide)
      columns.insert(columns.end(), {{"A stack", true},
                                     {"B stack", true},
                                     {"stack"},
                                     {"A heap", true},
                                     {"B heap", true},
                                     {"heap"}});
    else
      columns.insert(columns.end(), {{"stack"}, {"heap"}});
    report::TextTable table(std::move(columns));
    for (const auto& op : image.operations) {
      const auto& c = *op.find(compare::Metric::kCycles);
      const auto& s = *op.find(compare::Metric::kStack);
      const auto& h = *op.find(compare::Metric::kHeap);
      std::vector<std::string> row = {op.operation,     number_text(c.a), number_text(c.b),
                                      ratio_text(c),    percent_text(c), verdict_text(c)};
      if (wide)
        row.insert(row.end(), {number_text(s.a), number_text(s.b), verdict_text(s),
                               number_text(h.a), number_text(h.b), verdict_text(h)});
      else
        row.insert(row.end(), {verdict_text(s), verdict_text(h)});
      table.add_row(std::move(row));
    }
    table.write(std::cout, width);
    // A simulated image against the same configuration on silicon: how far the model is off.
    bool header = false;
    for (const auto& op : image.operations) {
      const auto ratio = compare::model_over_silicon(image, *op.find(compare::Metric::kCycles));
      if (!ratio) continue;
      if (!header) fmt::print("model/silicon (simulated cycles over the board's):\n");
      header = true;
      fmt::print("  {:<24}  {:.3f}  ({:+.1f}%)\n", op.operation, *ratio, (*ratio - 1) * 100);
    }
  }
  fmt::print("\n{}\n", summary_line(comparison, regression_count));
}

std::string markdown(const Side& a, const Side& b, const compare::Comparison& comparison,
                     const std::vector<compare::Regression>& found) {
  std::string out = "## fathom compare\n\n";
  out += fmt::format("- **A:** {}\n- **B:** {}\n- noise threshold: {}%\n", a.description,
                     b.description, comparison.options.threshold_percent);
  for (const auto& image : comparison.images) {
    out += fmt::format("\n### {}\n\nflash bytes: {} → {} ({})\n\n", image_title(image),
                       number_text(image.flash.a), number_text(image.flash.b),
                       verdict_text(image.flash));
    out += "| operation | A cycles | B cycles | ratio | delta | verdict | A stack | B stack | "
           "stack | A heap | B heap | heap |\n";
    out += "|---|--:|--:|--:|--:|---|--:|--:|---|--:|--:|---|\n";
    for (const auto& op : image.operations) {
      const auto& c = *op.find(compare::Metric::kCycles);
      const auto& s = *op.find(compare::Metric::kStack);
      const auto& h = *op.find(compare::Metric::kHeap);
      out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                         op.operation, number_text(c.a), number_text(c.b), ratio_text(c),
                         percent_text(c), verdict_text(c), number_text(s.a), number_text(s.b),
                         verdict_text(s), number_text(h.a), number_text(h.b), verdict_text(h));
    }
  }
  out += "\n**" + summary_line(comparison, found.size()) + "**\n";
  for (const auto& r : found)
    out += fmt::format("- `{}` {} on {}: {} {} → {} ({})\n",
                       r.operation.empty() ? "(image)" : r.operation, r.configuration, r.board,
                       compare::metric_name(r.comparison.metric), number_text(r.comparison.a),
                       number_text(r.comparison.b), percent_text(r.comparison));
  return out;
}

nlohmann::ordered_json metric_json(const compare::MetricComparison& m) {
  auto opt = [](const std::optional<double>& v) {
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
  };
  nlohmann::ordered_json out;
  out["a"] = opt(m.a);
  out["b"] = opt(m.b);
  out["delta"] = opt(m.delta);
  out["ratio"] = opt(m.ratio);
  out["delta_percent"] = opt(m.delta_percent);
  out["threshold_percent"] = m.threshold_percent;
  out["verdict"] = verdict_text(m);
  return out;
}

// A stored run has run/name/date/git fields and file null; a results file has run null.
nlohmann::ordered_json side_json(const Side& side) {
  nlohmann::ordered_json out;
  const history::RunSummary s = side.summary.value_or(history::RunSummary{});
  out["run"] = side.summary ? nlohmann::ordered_json(s.id) : nullptr;
  out["name"] = s.name;
  out["date"] = s.timestamp_utc;
  out["git_revision"] = s.git_revision ? nlohmann::ordered_json(*s.git_revision) : nullptr;
  out["git_dirty"] = s.git_dirty;
  out["file"] =
      side.file.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(side.file);
  out["suite"] = side.run.suite;
  return out;
}

std::string json(const Side& a, const Side& b, const compare::Comparison& comparison,
                 const std::vector<compare::Regression>& found) {
  nlohmann::ordered_json out;
  out["schema_version"] = 1;
  out["a"] = side_json(a);
  out["b"] = side_json(b);
  out["threshold_percent"] = comparison.options.threshold_percent;
  const compare::Coverage covered = compare::coverage(comparison);
  out["operations_in_both"] = covered.in_both;
  out["operations_only_in_a"] = covered.only_in_a;
  out["operations_only_in_b"] = covered.only_in_b;
  out["images"] = nlohmann::ordered_json::array();
  for (const auto& image : comparison.images) {
    nlohmann::ordered_json i;
    i["configuration_a"] = image.configuration_a;
    i["configuration_b"] = image.configuration_b;
    i["board_a"] = image.board_a;
    i["board_b"] = image.board_b;
    i["target_a"] = image.target_a.empty() ? "sim" : image.target_a;
    i["target_b"] = image.target_b.empty() ? "sim" : image.target_b;
    i["flash"] = metric_json(image.flash);
    i["operations"] = nlohmann::ordered_json::array();
    for (const auto& op : image.operations) {
      nlohmann::ordered_json o;
      o["operation"] = op.operation;
      for (const auto& m : op.metrics)
        o[std::string(compare::metric_name(m.metric))] = metric_json(m);
      const auto ratio = compare::model_over_silicon(image, *op.find(compare::Metric::kCycles));
      o["model_over_silicon"] = ratio ? nlohmann::ordered_json(*ratio) : nullptr;
      i["operations"].push_back(std::move(o));
    }
    out["images"].push_back(std::move(i));
  }
  out["regressions"] = nlohmann::ordered_json::array();
  for (const auto& r : found) {
    nlohmann::ordered_json j;
    j["configuration"] = r.configuration;
    j["board"] = r.board;
    j["operation"] = r.operation;
    j["metric"] = compare::metric_name(r.rule.metric);
    j["fail_above_percent"] = r.rule.percent;
    j["comparison"] = metric_json(r.comparison);
    out["regressions"].push_back(std::move(j));
  }
  return out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

int compare_command(const CompareFlags& flags) {
  compare::CompareOptions options;
  options.threshold_percent = flags.threshold_percent;
  for (const auto& text : flags.fail_above) {
    auto rule = compare::parse_gate_rule(text);
    if (!rule) throw_error(rule.error());
    options.fail_above.push_back(*rule);
  }
  const size_t want = flags.baseline.empty() ? 2 : 1;
  if (flags.runs.size() != want)
    throw util::FatalError(
        flags.baseline.empty()
            ? "compare needs two runs: fathom compare A B (results files or stored runs), or "
              "--baseline NAME B"
            : "with --baseline NAME give only the run to compare against it",
        kExitUsage);

  LazyStore store(flags.db);
  const Side a = load_side(store, flags.baseline.empty() ? flags.runs[0]
                                                         : "baseline:" + flags.baseline);
  const Side b = load_side(store, flags.runs.back());

  const compare::Comparison comparison = compare::compare_runs(a.run, b.run, options);
  // Nothing in common means nothing judged: a gate pointed at the wrong files must not pass.
  if (compare::coverage(comparison).in_both == 0)
    throw util::FatalError(
        "nothing to compare: A and B have no operation in common\n" + contents_text("A", a) + "\n" +
            contents_text("B", b) +
            "\ncompare results of the same operations (the same suite, --config and --op), or "
            "check that these are the files or runs you meant",
        kExitUsage);
  const std::vector<compare::Regression> found = compare::regressions(comparison);

  // The file first: an error after stdout's report would follow a whole document there (with
  // --format json, stdout holds the report or the error, cli/error_output.h).
  if (!flags.markdown_out.empty()) {
    std::ofstream file(flags.markdown_out, std::ios::binary | std::ios::trunc);
    file << markdown(a, b, comparison, found);
    if (!file.flush())
      throw util::FatalError("cannot write --markdown-out file " + flags.markdown_out +
                             "; check that its directory exists and is writable");
  }
  if (flags.format == "json")
    std::cout << json(a, b, comparison, found) << '\n';
  else if (flags.format == "markdown")
    std::cout << markdown(a, b, comparison, found);
  else
    print_table(a, b, comparison, found.size(), flags.wide);
  // A gate judges B: an operation B has but could not time (its KAT failed there) is not a pass.
  if (!comparison.options.fail_above.empty()) {
    const std::vector<compare::Unjudged> untimed = compare::untimed_in_b(comparison);
    if (!untimed.empty()) {
      std::string list;
      for (const auto& u : untimed)
        list += fmt::format("\n  {} on {}: {}", u.configuration, u.board, u.operation);
      fmt::print(stderr,
                 "fathom: the gate cannot judge {} operation{} that B has without timing (its "
                 "known-answer test did not pass there, or A timed it and B did not):{}\nfix "
                 "B's build, or compare the operations B times (--op)\n",
                 untimed.size(), untimed.size() == 1 ? "" : "s", list);
      return kExitFailure;
    }
  }
  return found.empty() ? kExitOk : kExitRegression;
}

}  // namespace

void register_compare_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<CompareFlags>();
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two runs (stored or results files) per operation; --fail-above gates "
      "regressions (exit 3)");
  cmd->add_option("runs", flags->runs,
                  "A and B: a results file from `fathom run --format json` (a name ending "
                  "in .json or an existing file), else a stored run: a run id, a run name, "
                  "latest, a baseline name or baseline:NAME")
      ->expected(0, 2);
  cmd->add_option("--config", flags->configurations,
                  "Instead of stored runs: run these two configurations of --suite now, with "
                  "the profiler, and diagnose every changed operation (as fathom diagnose)")
      ->expected(1, -1);
  cmd->add_option("--suite", flags->suite, "Suite for --config (default: default)");
  cmd->add_option("--op", flags->operations, "With --config: only these operations")
      ->expected(1, -1);
  cmd->add_option("--baseline", flags->baseline, "Use baseline NAME as A");
  cmd->add_option("--threshold", flags->threshold_percent,
                  "Noise threshold in percent (default 0.5; hardware results widen it)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--fail-above", flags->fail_above,
                  "PCT[:metric]: exit 3 if a figure got worse by more than PCT percent; metric "
                  "cycles (default), instructions, stack, heap or flash (repeatable)")
      ->allow_extra_args(false);
  cmd->add_flag("--wide", flags->wide,
                "Table: both sides' stack and heap bytes too (default: their verdicts), whole "
                "names");
  auto* format = cmd->add_option("--format", flags->format, "Output format: table, markdown, json")
                     ->check(CLI::IsMember({"table", "markdown", "json"}));
  state.json_errors.add(*cmd, *format);
  cmd->add_option("--markdown-out", flags->markdown_out, "Also write the Markdown report here");
  cmd->add_option("--db", flags->db, "History database (default: see docs/CLI.md)");
  cmd->callback([flags, &state] {
    if (!flags->configurations.empty()) {
      if (!flags->runs.empty())
        throw util::FatalError("give either two stored runs or two --config, not both",
                               kExitUsage);
      state.exit_code = diagnose_configurations(flags->suite, flags->configurations,
                                                flags->operations, flags->threshold_percent);
      return;
    }
    state.exit_code = compare_command(*flags);
  });
}

}  // namespace fathom::cli
