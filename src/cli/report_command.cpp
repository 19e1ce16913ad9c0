// `fathom report RESULT [--compare A] [--profiles] [--baseline CONFIG] [--out DIR]`: one
// self-contained HTML page of a results file (report/html_report.h), written to DIR/report.html.
// With --profiles every operation of every image is profiled once on the simulator (as
// `fathom profile` does, from the suite the results name) for the flame graphs, and each
// configuration's operations against the baseline configuration's on the same board for the
// differential ones. docs/REPORT.md.
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <memory>
#include <sstream>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/output_directory.h"
#include "cli/profile_session.h"
#include "cli/suite_session.h"
#include "compare/result_file.h"
#include "profile/export/flame_tree.h"
#include "report/html_report.h"
#include "sources/ensure.h"
#include "util/error.h"
#include "util/name_suggestion.h"

namespace fathom::cli {
namespace {

struct ReportFlags {
  std::string result;
  std::string compare;
  std::string baseline;
  bool profiles = false;
  std::vector<std::string> operations;
  std::string suite;
  std::string out = ".";
};

[[noreturn]] void fail_with(const util::Error& error) {
  throw util::FatalError(error.message, error.is_usage ? kExitUsage : kExitFailure);
}

std::string read_file_or_throw(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.is_open() || in.bad())
    throw util::FatalError(fmt::format("cannot read {} (run `fathom sources --fetch`)", path.string()));
  return text.str();
}

// The pinned packages' browser builds (sources.lock: d3, d3-flame-graph), fetched if missing.
report::HtmlAssets load_assets() {
  auto d3 = sources::ensure("d3");
  if (!d3) fail_with(d3.error());
  auto flame = sources::ensure("d3-flame-graph");
  if (!flame) fail_with(flame.error());
  report::HtmlAssets assets;
  assets.d3_js = read_file_or_throw(*d3 / "dist" / "d3.min.js");
  assets.d3_license = read_file_or_throw(*d3 / "LICENSE");
  assets.flame_graph_js = read_file_or_throw(*flame / "dist" / "d3-flamegraph.umd.min.js");
  assets.flame_graph_css = read_file_or_throw(*flame / "dist" / "d3-flamegraph.css");
  assets.flame_graph_license = read_file_or_throw(*flame / "LICENSE");
  return assets;
}

bool selected(const ReportFlags& flags, const std::string& operation) {
  return flags.operations.empty() ||
         std::find(flags.operations.begin(), flags.operations.end(), operation) !=
             flags.operations.end();
}

// Flame graphs of every selected operation whose KAT passed, and the differential ones against
// the baseline configuration's image on the same board.
std::vector<report::FlameGraph> profile_flames(const model::RunResult& run,
                                               const std::string& baseline,
                                               const ReportFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite.empty() ? run.suite : flags.suite);
  struct Profiled {
    const model::ImageResult* image;
    ProfiledImage profiled;
  };
  std::vector<Profiled> profiled;
  for (const auto& image : run.images) {
    std::vector<std::string> operations;
    for (const auto& op : image.operations)
      if (op.kat == model::KatStatus::kPassed && selected(flags, op.operation))
        operations.push_back(op.operation);
    if (operations.empty()) continue;
    fmt::print(stderr, "fathom: profiling {} operation{} of {} on {}\n", operations.size(),
               operations.size() == 1 ? "" : "s", image.configuration, image.board);
    profiled.push_back(
        {&image, profile_image(suite, image.configuration, image.board, operations, 1)});
  }
  auto find_profile = [](const ProfiledImage& p, const std::string& op) -> const profile::Profile* {
    for (const auto& prof : p.profiles.profiles)
      if (prof.name == op) return &prof;
    return nullptr;
  };
  std::vector<report::FlameGraph> flames;
  for (const auto& p : profiled)
    for (const auto& op : p.image->operations) {
      const profile::Profile* prof = find_profile(p.profiled, op.operation);
      if (!prof) continue;
      report::FlameGraph f{p.image->configuration, p.image->board, op.operation, false, "",
                           profile::flame_tree(p.profiled.profiles, *prof)};
      flames.push_back(std::move(f));
      if (p.image->configuration == baseline) continue;
      for (const auto& base : profiled) {
        if (base.image->configuration != baseline || base.image->board != p.image->board) continue;
        if (const profile::Profile* a = find_profile(base.profiled, op.operation))
          flames.push_back({p.image->configuration, p.image->board, op.operation, true, baseline,
                            profile::differential_flame_tree(base.profiled.profiles, *a,
                                                             p.profiled.profiles, *prof)});
      }
    }
  return flames;
}

int report_command(const ReportFlags& flags) {
  if (auto ok = check_output_directory(flags.out); !ok) fail_with(ok.error());
  auto run = compare::read_result_file(flags.result);
  if (!run) fail_with(run.error());
  if (run->images.empty())
    throw util::FatalError(fmt::format("{} holds no image: nothing to report", flags.result),
                           kExitUsage);
  std::optional<model::RunResult> other;
  if (!flags.compare.empty()) {
    auto read = compare::read_result_file(flags.compare);
    if (!read) fail_with(read.error());
    other = std::move(*read);
  }
  std::string baseline = flags.baseline.empty() ? run->images.front().configuration : flags.baseline;
  if (std::none_of(run->images.begin(), run->images.end(),
                   [&](const auto& im) { return im.configuration == baseline; })) {
    std::vector<std::string> names;
    for (const auto& im : run->images)
      if (std::find(names.begin(), names.end(), im.configuration) == names.end())
        names.push_back(im.configuration);
    throw util::FatalError(
        util::unknown_name_message("baseline configuration", flags.result + "'s configurations",
                                   baseline, names),
        kExitUsage);
  }
  for (const auto& op : flags.operations) {
    bool found = false;
    for (const auto& im : run->images)
      for (const auto& o : im.operations) found = found || o.operation == op;
    if (!found)
      throw util::FatalError(fmt::format("--op {}: no image in {} ran it", op, flags.result),
                             kExitUsage);
  }
  const report::HtmlAssets assets = load_assets();

  report::HtmlReport page;
  page.result = &*run;
  page.compare = other ? &*other : nullptr;
  page.compare_label = flags.compare;
  page.baseline_configuration = baseline;
  if (flags.profiles) page.flames = profile_flames(*run, baseline, flags);

  auto dir = make_output_directory(flags.out);
  if (!dir) fail_with(dir.error());
  const std::filesystem::path path = *dir / "report.html";
  {
    std::ofstream file(path, std::ios::binary);
    report::write_html_report(page, assets, file);
    if (!file) throw util::FatalError(fmt::format("cannot write {}", path.string()));
  }
  fmt::print("{}\n", path.string());
  fmt::print(stderr, "fathom: wrote {} ({} image{}, {} flame graph{})\n", path.string(),
             run->images.size(), run->images.size() == 1 ? "" : "s", page.flames.size(),
             page.flames.size() == 1 ? "" : "s");
  return 0;
}

}  // namespace

void register_report_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<ReportFlags>();
  auto* cmd = app.add_subcommand(
      "report",
      "Write one self-contained HTML page (report.html) of a results file: tables, charts per "
      "operation, a matrix of ratios, a comparison, flame graphs, fairness checks, workflows");
  cmd->add_option("result", flags->result,
                  "A results file (fathom run --format json, or --out DIR's results.json)")
      ->required();
  cmd->add_option("--compare", flags->compare,
                  "A second results file, the A of a comparison (RESULT is B)");
  cmd->add_option("--baseline", flags->baseline,
                  "Configuration the matrix and the differential flame graphs compare with "
                  "(default: the first image's)");
  cmd->add_flag("--profiles", flags->profiles,
                "Profile each operation once on the simulator for flame graphs, and against the "
                "baseline configuration for differential ones (builds from the results' suite)");
  cmd->add_option("--op", flags->operations, "With --profiles: only these operations (repeatable)");
  cmd->add_option("--suite", flags->suite,
                  "With --profiles: the suite to build from (default: the one the results name)");
  cmd->add_option("--out", flags->out,
                  "Directory to write report.html into (created if missing; not a file; "
                  "default: the current directory)");
  cmd->callback([flags, &state] { state.exit_code = report_command(*flags); });
}

}  // namespace fathom::cli
