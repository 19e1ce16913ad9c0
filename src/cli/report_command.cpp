// `fathom report RESULT [--compare A] [--profiles] [--baseline CONFIG] [--trend METRIC]
// [--out DIR]`: one self-contained HTML page of a results file or stored run
// (report/html_report.h), written to DIR/report.html.
// With --profiles every operation of every image is profiled once on the simulator (as
// `fathom profile` does, from the suite the results name) for the flame graphs, and each
// configuration's operations against the baseline configuration's on the same board for the
// differential ones and their diagnosis; with --compare, B's against A's where this tree
// rebuilds A's measured image (same ELF SHA-256). docs/REPORT.md.
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
#include "cli/run_reference.h"
#include "compare/comparison.h"
#include "compare/diagnosis.h"
#include "compare/diagnosis_json.h"
#include "history/trend.h"
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
  std::string trend;  // a metric: the history trend of it over the suite's stored runs
  std::string ct;     // a `fathom ct --format json` document
  std::string db;
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

std::string image_name(const model::ImageResult& image) {
  return image.configuration + " @ " + image.board;
}

std::string short_sha(const std::string& sha) { return sha.substr(0, 12); }

// One measured image profiled again from this tree. The profile is drawn as that image's only
// when the rebuilt ELF is the one that was measured (same SHA-256); otherwise `note` says why
// not and `usable` is false.
struct Profiled {
  const model::ImageResult* measured = nullptr;
  ProfiledImage profiled;
  bool usable = false;
};

const profile::Profile* find_profile(const ProfiledImage& p, const std::string& op) {
  for (const auto& prof : p.profiles.profiles)
    if (prof.name == op) return &prof;
  return nullptr;
}

// Profiles every selected operation of `image` whose KAT passed (nullopt when there is none).
// `side` names the results in notes ("" for RESULT, "A's " for the comparison's).
std::optional<Profiled> profile_measured(const model::Suite& suite, const model::ImageResult& image,
                                         const std::vector<std::string>& operations,
                                         const std::string& side,
                                         std::vector<std::string>& notes) {
  if (operations.empty()) return std::nullopt;
  fmt::print(stderr, "fathom: profiling {} operation{} of {}{} on {}\n", operations.size(),
             operations.size() == 1 ? "" : "s", side, image.configuration, image.board);
  Profiled out;
  out.measured = &image;
  out.profiled = profile_image(suite, image.configuration, image.board, operations, 1);
  const std::string& measured = image.provenance.elf_sha256;
  const std::string& rebuilt = out.profiled.image.provenance.elf_sha256;
  if (!measured.empty() && measured != rebuilt) {
    notes.push_back(fmt::format(
        "{}{}: not profiled: the measured image (ELF {}) is not what this tree builds now "
        "(ELF {}); profile it from the tree it was built from",
        side, image_name(image), short_sha(measured), short_sha(rebuilt)));
    fmt::print(stderr, "fathom: warning: {}\n", notes.back());
    return out;
  }
  out.usable = true;
  return out;
}

std::vector<std::string> kat_passed_operations(const model::ImageResult& image,
                                               const ReportFlags& flags,
                                               const model::ImageResult* other = nullptr) {
  std::vector<std::string> out;
  for (const auto& op : image.operations) {
    if (op.kat != model::KatStatus::kPassed || !selected(flags, op.operation)) continue;
    if (other && std::none_of(other->operations.begin(), other->operations.end(), [&](const auto& o) {
          return o.operation == op.operation && o.kat == model::KatStatus::kPassed;
        }))
      continue;
    out.push_back(op.operation);
  }
  return out;
}

// The images `fathom compare A B` pairs (compare::compare_runs): B's image and its A.
std::vector<report::ImagePair> image_pairs(const model::RunResult& a, const model::RunResult& b) {
  std::vector<report::ImagePair> out;
  for (const auto& im : compare::compare_runs(a, b, compare::CompareOptions{}).images)
    if (!im.configuration_a.empty() && !im.configuration_b.empty())
      out.push_back({im.configuration_a, im.board_a, im.configuration_b, im.board_b});
  return out;
}

// The A image a comparison pairs with `image` of B, or nullptr.
const model::ImageResult* paired_image(const model::RunResult& a, const model::RunResult& b,
                                       const model::ImageResult& image) {
  for (const auto& p : image_pairs(a, b)) {
    if (p.b_configuration != image.configuration || p.b_board != image.board) continue;
    for (const auto& im : a.images)
      if (im.configuration == p.a_configuration && im.board == p.a_board) return &im;
  }
  return nullptr;
}

struct ProfileSections {
  std::vector<report::FlameGraph> flames;
  std::vector<report::DiagnosisTable> diagnoses;
  std::vector<std::string> notes;
};

// Adds the differential graph of every operation `a` and `b` both profiled, and their diagnosis.
void add_differential(const Profiled& a, const Profiled& b, report::FlameGraph::Kind kind,
                      const std::string& against, const std::string& diagnosis_kind,
                      const std::string& a_label, ProfileSections& out) {
  for (const auto& op : b.measured->operations) {
    const profile::Profile* pb = find_profile(b.profiled, op.operation);
    const profile::Profile* pa = find_profile(a.profiled, op.operation);
    if (!pa || !pb) continue;
    out.flames.push_back({b.measured->configuration, b.measured->board, op.operation, kind, against,
                          profile::differential_flame_tree(a.profiled.profiles, *pa,
                                                           b.profiled.profiles, *pb)});
  }
  report::DiagnosisTable table;
  table.kind = diagnosis_kind;
  table.image_a = a_label;
  table.image_b = image_name(*b.measured);
  table.operations = compare::diagnosis_json(compare::diagnose(a.profiled.profiles, b.profiled.profiles));
  if (!table.operations.empty()) out.diagnoses.push_back(std::move(table));
}

// Flame graphs of every selected operation whose KAT passed, the differential ones against the
// baseline configuration's image on the same board and, with a comparison, against A's image,
// with the diagnosis of each pair.
ProfileSections profile_sections(const model::RunResult& run, const model::RunResult* compare_run,
                                 const std::string& compare_label, const std::string& baseline,
                                 const ReportFlags& flags) {
  const model::Suite suite = load_suite_or_throw(flags.suite.empty() ? run.suite : flags.suite);
  ProfileSections out;
  std::vector<Profiled> profiled;
  for (const auto& image : run.images)
    if (auto p = profile_measured(suite, image, kat_passed_operations(image, flags), "", out.notes))
      profiled.push_back(std::move(*p));
  for (const auto& p : profiled) {
    if (!p.usable) continue;
    for (const auto& op : p.measured->operations)
      if (const profile::Profile* prof = find_profile(p.profiled, op.operation))
        out.flames.push_back({p.measured->configuration, p.measured->board, op.operation,
                              report::FlameGraph::Kind::kProfile, "",
                              profile::flame_tree(p.profiled.profiles, *prof)});
    if (p.measured->configuration == baseline) continue;
    for (const auto& base : profiled)
      if (base.usable && base.measured->configuration == baseline &&
          base.measured->board == p.measured->board)
        add_differential(base, p, report::FlameGraph::Kind::kDifferential, baseline, "baseline",
                         image_name(*base.measured), out);
  }
  if (!compare_run) return out;
  // A's images: profiled from this tree too, and drawn only where the rebuilt ELF is A's.
  const model::Suite a_suite = compare_run->suite == run.suite || !flags.suite.empty()
                                   ? suite
                                   : load_suite_or_throw(compare_run->suite);
  for (const auto& b : profiled) {
    if (!b.usable) continue;
    const model::ImageResult* a_image = paired_image(*compare_run, run, *b.measured);
    if (!a_image) continue;
    const std::string a_label = fmt::format("{} in {}", image_name(*a_image), compare_label);
    std::optional<Profiled> a;
    if (!a_image->provenance.elf_sha256.empty() &&
        a_image->provenance.elf_sha256 == b.measured->provenance.elf_sha256) {
      a = Profiled{a_image, b.profiled, true};  // the same image: its profile is B's
    } else {
      a = profile_measured(a_suite, *a_image, kat_passed_operations(*a_image, flags, b.measured),
                           "A's ", out.notes);
    }
    if (a && a->usable)
      add_differential(*a, b, report::FlameGraph::Kind::kComparison, a_label, "comparison",
                       a_label, out);
  }
  return out;
}

// The trend of `metric` over the stored runs of `run`'s suite, for its images and operations.
// Every operation of the run, whatever --op selects for profiling.
nlohmann::ordered_json trend_of(LazyStore& lazy_store, const RunReference& ref,
                                const std::string& metric_name) {
  auto metric = history::parse_metric(metric_name);
  if (!metric) fail_with(metric.error());
  history::RunStore& store = lazy_store.get();
  history::HistoryQuery query;
  query.metric = *metric;
  for (const auto& im : ref.run.images) {
    if (std::find(query.configurations.begin(), query.configurations.end(), im.configuration) ==
        query.configurations.end())
      query.configurations.push_back(im.configuration);
    if (std::find(query.boards.begin(), query.boards.end(), im.board) == query.boards.end())
      query.boards.push_back(im.board);
    for (const auto& op : im.operations)
      if (std::find(query.operations.begin(), query.operations.end(), op.operation) ==
          query.operations.end())
        query.operations.push_back(op.operation);
  }
  auto runs = store.list_runs();
  if (!runs) fail_with(runs.error());
  auto rows = store.history(query);
  if (!rows) fail_with(rows.error());
  return history::trend_json(std::string(history::metric_name(*metric)), ref.run.suite, *runs,
                             *rows, ref.summary ? std::optional<int64_t>(ref.summary->id)
                                                : std::nullopt);
}

// A `fathom ct --format json` document (docs/CT.md), checked for what the page reads.
nlohmann::ordered_json load_constant_time(const std::string& path) {
  auto usage = [&](const std::string& what) {
    return util::FatalError(
        fmt::format("--ct {}: {}; give the output of `fathom ct --format json`", path, what),
        kExitUsage);
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw usage("cannot read the file");
  nlohmann::ordered_json doc;
  try {
    doc = nlohmann::ordered_json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw usage(fmt::format("not JSON ({})", e.what()));
  }
  if (!doc.is_object() || !doc.contains("schema_version") || !doc["schema_version"].is_number_integer())
    throw usage("no schema_version");
  if (doc["schema_version"] != 1)
    throw usage(fmt::format("schema_version {} (this fathom reads 1)", doc["schema_version"].dump()));
  if (!doc.contains("operations") || !doc["operations"].is_array())
    throw usage("no operations array");
  for (size_t i = 0; i < doc["operations"].size(); ++i) {
    const auto& o = doc["operations"][i];
    for (const char* key : {"configuration", "board", "verdict"})
      if (!o.is_object() || !o.contains(key) || !o[key].is_string())
        throw usage(fmt::format("operations[{}] has no string '{}'", i, key));
    if (o.contains("taint") && !o["taint"].is_null() &&
        (!o["taint"].is_object() || !o["taint"].contains("findings") ||
         !o["taint"]["findings"].is_array()))
      throw usage(fmt::format("operations[{}].taint has no findings array", i));
  }
  return doc;
}

int report_command(const ReportFlags& flags) {
  if (auto ok = check_output_directory(flags.out); !ok) fail_with(ok.error());
  if (!flags.trend.empty())
    if (auto metric = history::parse_metric(flags.trend); !metric) fail_with(metric.error());
  LazyStore store(flags.db);
  const RunReference result = load_run_reference(store, flags.result);
  const model::RunResult* run = &result.run;
  const std::string result_label = result.file.empty() ? result.description : result.file;
  if (run->images.empty())
    throw util::FatalError(fmt::format("{} holds no image: nothing to report", result_label),
                           kExitUsage);
  std::optional<RunReference> other;
  std::string compare_label;
  if (!flags.compare.empty()) {
    other = load_run_reference(store, flags.compare);
    compare_label = other->file.empty() ? other->description : other->file;
  }
  std::string baseline = flags.baseline.empty() ? run->images.front().configuration : flags.baseline;
  if (std::none_of(run->images.begin(), run->images.end(),
                   [&](const auto& im) { return im.configuration == baseline; })) {
    std::vector<std::string> names;
    for (const auto& im : run->images)
      if (std::find(names.begin(), names.end(), im.configuration) == names.end())
        names.push_back(im.configuration);
    throw util::FatalError(
        util::unknown_name_message("baseline configuration", result_label + "'s configurations",
                                   baseline, names),
        kExitUsage);
  }
  for (const auto& op : flags.operations) {
    bool found = false;
    for (const auto& im : run->images)
      for (const auto& o : im.operations) found = found || o.operation == op;
    if (!found)
      throw util::FatalError(fmt::format("--op {}: no image in {} ran it", op, result_label),
                             kExitUsage);
  }
  const nlohmann::ordered_json constant_time =
      flags.ct.empty() ? nlohmann::ordered_json(nullptr) : load_constant_time(flags.ct);
  const report::HtmlAssets assets = load_assets();

  report::HtmlReport page;
  page.result = run;
  page.result_label = result_label;
  page.compare = other ? &other->run : nullptr;
  page.compare_label = compare_label;
  if (other) page.compare_pairs = image_pairs(other->run, *run);
  page.baseline_configuration = baseline;
  if (!flags.trend.empty()) page.trend = trend_of(store, result, flags.trend);
  page.constant_time = constant_time;
  if (flags.profiles) {
    ProfileSections sections =
        profile_sections(*run, page.compare, compare_label, baseline, flags);
    page.flames = std::move(sections.flames);
    page.diagnoses = std::move(sections.diagnoses);
    page.profile_notes = std::move(sections.notes);
  }

  auto dir = make_output_directory(flags.out);
  if (!dir) fail_with(dir.error());
  const std::filesystem::path path = *dir / "report.html";
  {
    std::ofstream file(path, std::ios::binary);
    report::write_html_report(page, assets, file);
    if (!file) throw util::FatalError(fmt::format("cannot write {}", path.string()));
  }
  fmt::print("{}\n", path.string());
  fmt::print(stderr, "fathom: wrote {} ({} image{}, {} flame graph{}, {} diagnosis table{})\n",
             path.string(), run->images.size(), run->images.size() == 1 ? "" : "s",
             page.flames.size(), page.flames.size() == 1 ? "" : "s", page.diagnoses.size(),
             page.diagnoses.size() == 1 ? "" : "s");
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
                  "A results file (fathom run --format json, or --out DIR's results.json) or a "
                  "stored run (a run id, a run --name, latest, a baseline name)")
      ->required();
  cmd->add_option("--compare", flags->compare,
                  "A second results file or stored run, the A of a comparison (RESULT is B)");
  cmd->add_option("--baseline", flags->baseline,
                  "Configuration the matrix and the differential flame graphs compare with "
                  "(default: the first image's)");
  cmd->add_flag("--profiles", flags->profiles,
                "Profile each operation once on the simulator for flame graphs, and against the "
                "baseline configuration for differential ones (builds from the results' suite)");
  cmd->add_option("--op", flags->operations, "With --profiles: only these operations (repeatable)");
  cmd->add_option("--suite", flags->suite,
                  "With --profiles: the suite to build from (default: the one the results name)");
  cmd->add_option("--trend", flags->trend,
                  "Add the history of this metric (cycles, instructions, stack, heap) over the "
                  "suite's stored runs, per operation");
  cmd->add_option("--ct", flags->ct,
                  "Add the constant-time check of this `fathom ct --format json` file (its "
                  "verdicts and taint findings)");
  cmd->add_option("--db", flags->db, "History database (default: see docs/CLI.md)");
  cmd->add_option("--out", flags->out,
                  "Directory to write report.html into (created if missing; not a file; "
                  "default: the current directory)");
  cmd->callback([flags, &state] { state.exit_code = report_command(*flags); });
}

}  // namespace fathom::cli
