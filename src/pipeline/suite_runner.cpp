#include "pipeline/suite_runner.h"

#include "pipeline/library_gate.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <memory>
#include <sstream>

#include "analysis/fairness.h"
#include "analysis/workflow.h"
#include "build/image_builder.h"
#include "build/library_description.h"
#include "build/toolchain.h"
#include "pipeline/cross_check.h"
#include "pipeline/image_plan.h"
#include "pipeline/instruction_estimate.h"
#include "pipeline/live_view.h"
#include "pipeline/result_cache.h"
#include "pipeline/run_selection.h"
#include "pipeline/suite_builder.h"
#include "elf/elf_image.h"
#include "elf/harness_operations.h"
#include "sources/source_cache.h"
#include "sources/source_lock.h"
#include "suite/analysis_specs.h"
#include "suite/board_loader.h"
#include "target/target_factory.h"
#include "util/cache_dir.h"
#include "util/core_budget.h"
#include "util/name_suggestion.h"
#include "util/parallel_for.h"
#include "util/version.h"

namespace fathom::pipeline {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

util::Result<void> validate_options(const model::Suite& suite, const RunOptions& options) {
  for (const auto& name : options.configurations) {
    const bool known = std::any_of(suite.configurations.begin(), suite.configurations.end(),
                                   [&](const auto& c) { return c.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& c : suite.configurations) names.push_back(c.name);
      return util::fail_usage(util::unknown_name_message(
          "configuration", fmt::format("configurations in suite '{}'", suite.name), name, names));
    }
  }
  // --board names, checked before anything is built (a board in the suite file is checked
  // when the file is loaded). Without a firmware directory there is nothing to check against.
  if (!options.firmware_dir.empty()) {
    const std::vector<std::string> boards = suite::list_boards(options.firmware_dir / "boards");
    for (const auto& name : options.boards)
      if (std::find(boards.begin(), boards.end(), name) == boards.end())
        return util::fail_usage(util::unknown_name_message("board", "boards", name, boards));
  }
  if (options.runs && (*options.runs < 1 || *options.runs > 100000))
    return util::fail_usage("--runs must be between 1 and 100000");
  if (options.warmup && *options.warmup > 100000)
    return util::fail_usage("--warmup must be at most 100000");
  return {};
}

namespace {

// What shapes an image's results besides the image and parameters, for the result key: the
// target's settings and the primitive groups it measures.
std::string observers_text(const target::Target& target,
                           const std::map<std::string, std::vector<std::string>>& groups) {
  std::string text = target.measurement_key();
  for (const auto& [group, patterns] : groups)
    text += fmt::format(" share[{}]={}", group, fmt::join(patterns, ","));
  return text;
}

// The pinned qemu source's root (its plugin header builds the QEMU target's plugin), without
// fetching; empty if it is not there (the QEMU target then says to fetch it).
std::filesystem::path qemu_source_root(const sources::SourceLock& lock) {
  const sources::SourceEntry* entry = lock.find("qemu");
  auto cache_root = util::cache_dir();
  if (entry == nullptr || !cache_root) return {};
  auto root = sources::SourceCache(*cache_root).root(*entry);
  return root ? *root : std::filesystem::path();
}

// The board description as the simulator reads it (its board.toml), for the result key.
util::Result<std::string> board_description(const model::Board& board) {
  std::ifstream in(board.directory / "board.toml", std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.is_open() || in.bad())
    return util::fail(fmt::format("cannot read {}", (board.directory / "board.toml").string()));
  return text.str();
}

}  // namespace

void derive_across_images(model::RunResult& run, const model::Suite& suite) {
  run.fairness.clear();
  if (suite.fairness) run.fairness = analysis::check_fairness(run, suite, *suite.fairness);
  run.workflows = analysis::evaluate_workflows(run, suite.workflows);
  run.workflow_verdicts = analysis::workflow_verdicts(run.workflows);
}

util::Result<model::RunResult> run_suite(const model::Suite& suite, const RunOptions& options,
                                         util::Progress& progress, RunCounts* counts) {
  if (auto v = validate_options(suite, options); !v) return tl::unexpected(v.error());
  auto toolchain = build::find_toolchain();
  if (!toolchain) return tl::unexpected(toolchain.error());
  auto lock = sources::load_lock(sources::default_lock_path());
  if (!lock) return tl::unexpected(lock.error());

  const uint32_t runs = options.runs.value_or(suite.runs);
  const uint32_t warmup = options.warmup.value_or(suite.warmup);
  const std::vector<std::string>& operations =
      options.operations.empty() ? suite.operations : options.operations;
  // Results are reused only from a plain measurement, or with what the caller's observers saw
  // kept beside them (RunOptions::kept_observation).
  std::optional<ResultCache> cache;
  std::string tool_sha256;
  // What the caller's observers keep beside an observed image's result; null for a plain
  // measurement (no caller observers), whose result alone is kept.
  const RunOptions::KeptObservation* kept =
      options.target_for_image && options.kept_observation ? &*options.kept_observation : nullptr;
  if (!options.result_cache_dir.empty() && (!options.target_for_image || kept)) {
    if (auto digest = executable_sha256()) {
      cache.emplace(options.result_cache_dir);
      tool_sha256 = *digest;
    }
  }

  const std::vector<std::string> analysis_operations = suite::operations_named_by_analyses(suite);
  PlanInputs plan_inputs;
  plan_inputs.firmware_dir = options.firmware_dir;
  plan_inputs.compiler = toolchain->version;
  plan_inputs.lock = &*lock;
  plan_inputs.runs = runs;
  plan_inputs.warmup = warmup;
  plan_inputs.operations = operations;
  plan_inputs.operations_from_command_line = !options.operations.empty();
  const std::vector<MatrixEntry> matrix = suite_matrix(suite, options);
  const auto library_sources = fetch_library_sources(matrix, options, progress);
  progress.remove_line("");  // the fetching and hashing messages
  std::vector<model::ImageResult> images(matrix.size());
  std::vector<util::Error> usage_errors(matrix.size());
  std::vector<char> build_reused(matrix.size(), 0);
  std::atomic<bool> stop{false};  // set by a usage error: the run's result is that error

  // The cores of `-j`: each image holds one while it is worked on; a simulator run borrows the
  // free ones for its operations (target/sim/slot_run.h), e.g. when the last image runs alone.
  const unsigned jobs = options.jobs == 0 ? util::online_cpus() : options.jobs;
  util::CoreBudget cores(jobs);

  // The live view (a terminal's progress lines): every image being measured, redrawn by a
  // ticker with its instructions so far, what its machines run and an ETA.
  std::optional<InstructionEstimates> estimates;
  if (!options.result_cache_dir.empty())
    estimates.emplace(options.result_cache_dir.parent_path() / "estimates");
  LiveImages live_images;
  LiveTicker ticker(progress, live_images);

  // Everything for one image; images share nothing mutable but `progress` (serialized).
  util::parallel_for(matrix.size(), jobs, [&](size_t index) {
    const util::CoreBudget::Held core(&cores);
    const model::Configuration& cfg = *matrix[index].configuration;
    const std::string& board_name = matrix[index].board;
    model::ImageResult& image = images[index];
    image.configuration = cfg.name;
    image.board = board_name;
    // One progress line per image: "[2/5] mbedtls on sim-m33: ..." (the image's place in the
    // matrix, so that each line of a -j run keeps its number).
    const std::string line_key = cfg.name + " on " + board_name;
    const std::string label =
        fmt::format("[{}/{}] {} on {}", index + 1, matrix.size(), cfg.name, board_name);
    auto status = [&](const std::string& what) { progress.set_line(line_key, label + ": " + what); };

    // Everything below may fail for this image only; the message becomes its result.
    auto run_image = [&]() -> util::Result<void> {
      if (stop) return util::fail("not run: the run stopped at a usage error");
      // The plan stage: board, libraries, operations and provenance, read once.
      auto planned = plan_image(cfg, board_name, plan_inputs);
      if (!planned) {
        image.provenance = base_provenance(cfg, board_name, plan_inputs);
        return tl::unexpected(planned.error());
      }
      const ImagePlan& plan = *planned;
      image.provenance = plan.provenance;
      model::Provenance& prov = image.provenance;
      const model::Board* board = &plan.board;
      const build::LibraryDescription* lib = &plan.gate;

      auto built = build_suite_image(plan, library_sources, options, *toolchain, progress);
      if (!built) return tl::unexpected(built.error());
      build_reused[index] = built->reused;
      prov.cflags = built->cflags;
      image.size = built->size;
      prov.elf_sha256 = built->elf_sha256;

      const elf::ElfImage* elf = built->elf_image.get();
      auto offered = elf::harness_operations(*elf);
      if (!offered) return tl::unexpected(offered.error());
      std::vector<std::string> image_operations = plan.operations;
      // With an operation list, the operations the suite's fairness control and workflows
      // name run too, in the images that offer them.
      if (!image_operations.empty())
        for (const auto& op : analysis_operations)
          if (contains(*offered, op) && !contains(image_operations, op))
            image_operations.push_back(op);
      for (const auto& op : image_operations)
        if (!contains(*offered, op))
          return util::fail_usage(fmt::format("unknown operation '{}' (configuration '{}' offers: {})",
                                        op, cfg.name, fmt::join(*offered, ", ")));

      // The target that runs it (target/target_factory.h), with the caller's observers when
      // it asks for its own.
      target::TargetSettings target_settings = options.target;
      target_settings.sim.cores = &cores;
      if (target::target_kind(*board, target_settings) == model::TargetKind::kQemu &&
          target_settings.qemu_source_root.empty())
        target_settings.qemu_source_root = qemu_source_root(*lock);
      auto target = options.target_for_image
                        ? options.target_for_image(*board, *elf, built->elf)
                        : target::make_target(*board, target_settings);
      if (!target) return tl::unexpected(target.error());
      prov.target = (*target)->name();

      // Timed runs per operation (pipeline/run_selection.h): fewer where a deterministic
      // target repeats a fixed input exactly.
      RunSelectionInputs selection_inputs;
      selection_inputs.suite_runs = suite.runs;
      selection_inputs.command_line_runs = options.runs;
      selection_inputs.fresh_inputs = suite.fresh_inputs;
      selection_inputs.deterministic_target = (*target)->deterministic();
      const auto selected =
          select_runs(selection_inputs, image_operations.empty() ? *offered : image_operations);
      std::map<std::string, uint32_t> operation_runs;
      for (const auto& [op, chosen] : selected)
        if (chosen.runs != runs && !options.secret_variants) operation_runs[op] = chosen.runs;

      // The result cache (pipeline/result_cache.h): same image, board, parameters, target
      // settings and fathom executable give the same results on a deterministic target. A
      // cross-check keys each side as a plain run on that target would, so either side's
      // stored measurement is reused (`--fresh` measures both again).
      auto estimate_inputs = [&]() {
        ResultKeyInputs key;
        key.board_description = board->name;
        key.runs = runs;
        key.operation_runs = operation_runs;
        key.warmup = warmup;
        key.operations = image_operations;
        key.cycle_budget = suite.cycle_budget;
        key.observers = observers_text(**target, lib->primitive_groups);
        return key;
      };
      // `observed`: the key of the image's own target, which the caller's observers watch.
      auto key_on = [&](const target::Target& on, bool observed) -> std::string {
        if (!cache || !on.deterministic()) return {};
        auto board_text = board_description(*board);
        if (!board_text) return {};
        ResultKeyInputs key;
        key.elf_sha256 = built->elf_sha256;
        key.board_description = *board_text;
        key.runs = runs;
        key.operation_runs = operation_runs;
        key.warmup = warmup;
        key.operations = image_operations;
        key.cycle_budget = suite.cycle_budget;
        key.observers = observers_text(on, lib->primitive_groups);
        if (kept && observed) key.observers += " kept[" + kept->key + "]";
        if (options.secret_variants)
          key.secret_variants =
              fmt::format("first={} fixed={}", options.secret_first, options.secret_fixed);
        key.tool_sha256 = tool_sha256;
        return pipeline::result_key(key);
      };
      auto stored_on = [&](const std::string& key,
                           bool observed) -> std::optional<model::ImageResult> {
        if (key.empty() || options.fresh) return std::nullopt;
        auto stored = cache->load(key);
        if (stored && kept && observed) {
          const auto text = cache->load_observation(key);
          if (!text || !kept->load(built->elf, *text)) return std::nullopt;
        }
        return stored;
      };

      target::ImageToRun to_run;
      to_run.elf_path = built->elf;
      to_run.elf = elf;
      to_run.board = board;
      to_run.primitive_groups = lib->primitive_groups;
      target::RunParameters params;
      params.runs = runs;
      params.operation_runs = operation_runs;
      params.warmup = warmup;
      params.operations = image_operations;
      params.cycle_budget = suite.cycle_budget;
      params.secret_variants = options.secret_variants;
      params.secret_first = options.secret_first;
      params.secret_fixed = options.secret_fixed;
      // One measurement of the image on `on` into `into` (its figures and what the
      // measurement knows of its provenance), gated like every result; the target's protocol
      // errors are returned.
      auto measure_on = [&](target::Target& on,
                            model::ImageResult& into) -> util::Result<std::vector<std::string>> {
        target::RunParameters on_params = params;
        // Not with secret variants (`fathom ct`): run 0 would reset the heap peak and paint
        // the stack, work the later runs do not do, and differ from them by that much.
        on_params.memory_in_timed_run = on.deterministic() && !params.secret_variants;
        auto ran = on.run(to_run, on_params);
        if (!ran) return tl::unexpected(ran.error());
        into.provenance.target = on.name();
        into.provenance.timing_model = ran->timing_model;
        into.provenance.target_details = ran->origin;
        into.provenance.target_details.erase("target");
        into.provenance.isolation = ran->isolation;
        into.provenance.run_order = ran->run_order;
        into.completed = ran->completed;
        into.fault = ran->fault;
        into.total_cycles = ran->total_cycles;
        into.total_instructions = ran->total_instructions;
        into.untimed_instructions = ran->untimed_instructions;
        into.host_seconds = ran->host_seconds;
        into.host_machines = ran->host_machines;
        into.host_ran_again = ran->host_ran_again;
        into.operations = std::move(ran->operations);
        into.console_log = std::move(ran->console_log);
        for (auto& op : into.operations) enforce_kat_gate(op);
        enforce_library_gate(into.operations, *lib);
        record_runs(into.operations, selected);
        // A share is a share of measured cycles: none for an operation without timing.
        for (auto& op : into.operations)
          if (!op.has_timing()) {
            op.primitive_share.clear();
            op.primitive_calls.clear();
          }
        // The fault is reported from `fault`; protocol problems go into `error`.
        if (!ran->errors.empty()) into.error = fmt::format("{}", fmt::join(ran->errors, "; "));
        return std::move(ran->errors);
      };

      const std::string result_key = key_on(**target, true);
      const std::string estimate = estimates ? estimate_key(cfg.name, estimate_inputs()) : "";
      if (auto stored = stored_on(result_key, true)) {
        // The measured figures are the stored ones; the provenance is this run's (it
        // describes the same image) plus what only the measurement knows.
        prov.timing_model = stored->provenance.timing_model;
        prov.target_details = stored->provenance.target_details;
        prov.reused_from = stored->provenance.reused_from;
        prov.isolation = stored->provenance.isolation;
        prov.run_order = stored->provenance.run_order;
        image.completed = stored->completed;
        image.total_cycles = stored->total_cycles;
        image.total_instructions = stored->total_instructions;
        image.untimed_instructions = stored->untimed_instructions;
        image.operations = std::move(stored->operations);
        image.console_log = std::move(stored->console_log);
      } else {
        status(fmt::format("running on {}", (*target)->name()));
        // The live view's line of this image (the ticker below redraws it), with the ETA from
        // the instructions its last measurement executed.
        LiveImage live;
        live.label = label;
        live.line_key = line_key;
        if (estimates) live.expected = estimates->load(estimate);
        live.start = std::chrono::steady_clock::now();
        to_run.meter = &live.meter;
        const LiveRegistration registered(live_images, &live);
        auto measured = measure_on(**target, image);
        to_run.meter = nullptr;
        if (!measured) return tl::unexpected(measured.error());
        // Only a clean measurement is kept (ResultCache::store drops failed ones), and one that
        // the caller observed only with what its observers saw.
        if (!result_key.empty()) {
          if (!kept) {
            cache->store(result_key, image, utc_timestamp_now());
          } else if (reusable(image)) {
            if (const auto text = kept->save(built->elf))
              if (cache->store(result_key, image, utc_timestamp_now()))
                cache->store_observation(result_key, *text);
          }
        }
      }
      // The next run's ETA: what this measurement (or the stored one) executed.
      if (estimates && image.completed && image.error.empty())
        estimates->store(estimate, image.total_instructions);

      // The same image on a second target, compared run by run (pipeline/cross_check.h).
      if (options.cross_check && *options.cross_check != target::target_kind(*board, options.target)) {
        target::TargetSettings second = options.target;
        second.kind = *options.cross_check;
        // The QEMU engine is the QEMU target's: a cross-check on the simulator is the simulator.
        second.qemu_engine = second.kind == model::TargetKind::kQemu && options.target.qemu_engine;
        auto other = target::make_target(*board, second);
        if (!other) return tl::unexpected(other.error());
        const std::string other_key = key_on(**other, false);
        model::ImageResult again;
        std::vector<std::string> again_errors;
        if (auto stored = stored_on(other_key, false)) {
          again = std::move(*stored);
        } else {
          status(fmt::format("cross-checking on {}", (*other)->name()));
          again.configuration = image.configuration;
          again.board = image.board;
          again.provenance = image.provenance;
          again.provenance.reused_from.clear();
          auto measured = measure_on(**other, again);
          if (!measured) return tl::unexpected(measured.error());
          again_errors = std::move(*measured);
          if (!other_key.empty()) cache->store(other_key, again, utc_timestamp_now());
        }
        image.cross_check =
            cross_check(image.operations, (*target)->name(), again.operations, (*other)->name());
        image.cross_check->reused_from = again.provenance.reused_from;
        if (!again.completed)
          image.cross_check->differences.push_back(fmt::format(
              "the image did not complete on {}{}", (*other)->name(),
              again_errors.empty() ? "" : ": " + fmt::format("{}", fmt::join(again_errors, "; "))));
      }
      return {};
    };
    if (auto r = run_image(); !r) {
      if (r.error().is_usage) {
        usage_errors[index] = r.error();
        stop = true;
      }
      image.error = r.error().message;
    }
    status(image.error.empty() ? "done" : "failed");
    progress.remove_line(line_key);
  });
  ticker.stop();
  progress.clear();
  // A usage error (an unknown operation) stops the run; the first in suite order is reported.
  for (const auto& e : usage_errors)
    if (e.is_usage) return tl::unexpected(e);

  model::RunResult result;
  result.suite = suite.name;
  result.images = std::move(images);
  derive_across_images(result, suite);
  if (counts) {
    *counts = RunCounts{};
    counts->images = result.images.size();
    for (size_t i = 0; i < result.images.size(); ++i) {
      counts->builds_reused += build_reused[i] ? 1 : 0;
      counts->results_reused += result.images[i].provenance.reused_from.empty() ? 0 : 1;
      counts->most_machines = std::max(counts->most_machines, result.images[i].host_machines);
      counts->ran_again += result.images[i].host_ran_again ? 1 : 0;
    }
  }
  return result;
}

}  // namespace fathom::pipeline
