#include "pipeline/suite_runner.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <memory>

#include "build/image_builder.h"
#include "build/library_description.h"
#include "build/toolchain.h"
#include "elf/elf_image.h"
#include "elf/harness_operations.h"
#include "profile/primitive_share.h"
#include "sim/observer_fanout.h"
#include "sources/ensure.h"
#include "sources/source_lock.h"
#include "suite/board_loader.h"
#include "target/sim_target.h"
#include "util/sha256.h"
#include "util/version.h"

namespace fathom::pipeline {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Correctness gates timing: whatever a target returned, an operation without a passing KAT
// keeps no timing or memory figures.
void enforce_kat_gate(model::OperationResult& op) {
  if (op.kat == model::KatStatus::kPassed) return;
  op.cycle_samples.clear();
  op.instruction_samples.clear();
  op.cycles.reset();
  op.instructions.reset();
  op.peak_stack_bytes.reset();
  op.heap_peak_bytes.reset();
  op.allocations.reset();
  op.sim_peak_stack_bytes.reset();
  op.sim_heap_peak_bytes.reset();
  op.sim_allocations.reset();
  op.memory_mismatch.clear();
  if (op.error.empty()) {
    std::vector<std::string> failed;
    for (const auto& v : op.kat_vectors)
      if (!v.passed) failed.push_back(v.name);
    op.error = op.kat == model::KatStatus::kFailed
                   ? fmt::format("known-answer test failed: {}", fmt::join(failed, ", "))
                   : "known-answer tests did not run";
  }
}

}  // namespace

util::Result<void> validate_options(const model::Suite& suite, const RunOptions& options) {
  for (const auto& name : options.configurations) {
    const bool known = std::any_of(suite.configurations.begin(), suite.configurations.end(),
                                   [&](const auto& c) { return c.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& c : suite.configurations) names.push_back(c.name);
      return util::fail_usage(fmt::format("unknown configuration '{}' in suite '{}' (it has: {})", name,
                                    suite.name, fmt::join(names, ", ")));
    }
  }
  if (options.runs && (*options.runs < 1 || *options.runs > 100000))
    return util::fail_usage("--runs must be between 1 and 100000");
  if (options.warmup && *options.warmup > 100000)
    return util::fail_usage("--warmup must be at most 100000");
  return {};
}

util::Result<model::RunResult> run_suite(const model::Suite& suite, const RunOptions& options,
                                         util::Progress& progress) {
  if (auto v = validate_options(suite, options); !v) return tl::unexpected(v.error());
  auto toolchain = build::find_toolchain();
  if (!toolchain) return tl::unexpected(toolchain.error());
  auto lock = sources::load_lock(sources::default_lock_path());
  if (!lock) return tl::unexpected(lock.error());

  const uint32_t runs = options.runs.value_or(suite.runs);
  const uint32_t warmup = options.warmup.value_or(suite.warmup);
  const std::vector<std::string>& operations =
      options.operations.empty() ? suite.operations : options.operations;

  model::RunResult result;
  result.suite = suite.name;
  for (const auto& cfg : suite.configurations) {
    if (!options.configurations.empty() && !contains(options.configurations, cfg.name)) continue;
    for (const auto& board_name : options.boards.empty() ? suite.boards : options.boards) {
      model::ImageResult image;
      image.configuration = cfg.name;
      image.board = board_name;
      model::Provenance& prov = image.provenance;
      prov.tool_version = util::kToolVersion;
      prov.tool_git_revision = util::kToolGitRevision;
      prov.compiler = toolchain->version;
      prov.board = board_name;
      prov.library = cfg.library;
      prov.config_defines = cfg.defines;
      prov.config_undefines = cfg.undefines;
      prov.runs = runs;
      prov.warmup = warmup;

      // Everything below may fail for this image only; the message becomes its result.
      auto run_image = [&]() -> util::Result<void> {
        auto board = suite::load_board(options.firmware_dir / "boards", board_name);
        if (!board) return tl::unexpected(board.error());
        prov.core = board->core;
        prov.clock_hz = board->clock_hz;
        auto lib = build::load_library(options.firmware_dir, cfg.library);
        if (!lib) return tl::unexpected(lib.error());
        prov.library_version = lib->version;
        if (const auto* entry = lock->find(lib->source)) prov.source_sha256[entry->name] = entry->sha256;
        progress.update(fmt::format("{} on {}: fetching {} sources", cfg.name, board_name,
                                    lib->name));
        auto root = sources::ensure(lib->source);
        if (!root) return tl::unexpected(root.error());

        build::ImageRequest req;
        req.configuration = &cfg;
        req.board = &*board;
        req.firmware_dir = options.firmware_dir;
        req.library_source = *root;
        req.build_root = options.build_root;
        auto built = build::build_image(req, *toolchain, [&](const std::string& s) {
          progress.update(fmt::format("{} on {}: {}", cfg.name, board_name, s));
        });
        if (!built) return tl::unexpected(built.error());
        prov.cflags = built->cflags;
        image.size = built->size;
        if (auto h = util::sha256_file(built->elf)) prov.elf_sha256 = *h;

        auto elf = elf::ElfImage::load(built->elf);
        if (!elf) return tl::unexpected(elf.error());
        auto offered = elf::harness_operations(*elf);
        if (!offered) return tl::unexpected(offered.error());
        for (const auto& op : operations)
          if (!contains(*offered, op))
            return util::fail_usage(fmt::format("unknown operation '{}' (configuration '{}' offers: {})",
                                          op, cfg.name, fmt::join(*offered, ", ")));

        progress.update(fmt::format("{} on {}: running on the simulator", cfg.name, board_name));
        sim::ObserverFanout observers;
        observers.add(options.observer_for_image ? options.observer_for_image(built->elf)
                                                 : nullptr);
        // Primitive share (docs/PROFILER.md): a call tracker over the run when the library
        // names groups of functions. Observing never changes the counts.
        std::unique_ptr<profile::PrimitiveShareRecorder> share;
        if (options.primitive_share && !lib->primitive_groups.empty() &&
            options.sim_hook_mode != sim::HookMode::kBlockCountOnly) {
          auto recorder = profile::PrimitiveShareRecorder::create(*elf, lib->primitive_groups);
          if (!recorder) return tl::unexpected(recorder.error());
          share = std::move(*recorder);
          observers.add(share->observer());
        }
        target::SimTarget target(options.sim_hook_mode, observers.get(), options.memory_watch);
        target::RunRequest rr;
        rr.elf = built->elf;
        rr.board = &*board;
        rr.runs = runs;
        rr.warmup = warmup;
        rr.operations = operations;
        rr.cycle_budget = suite.cycle_budget;
        auto ran = target.run(rr);
        if (!ran) return tl::unexpected(ran.error());
        prov.timing_model = ran->timing_model;
        image.completed = ran->completed;
        image.fault = ran->fault;
        image.total_cycles = ran->total_cycles;
        image.total_instructions = ran->total_instructions;
        image.host_seconds = ran->host_seconds;
        image.operations = std::move(ran->operations);
        image.console_log = std::move(ran->console_log);
        for (auto& op : image.operations) enforce_kat_gate(op);
        if (share) {
          const auto shares = share->finish();
          for (auto& op : image.operations)
            if (auto it = shares.find(op.operation); op.has_timing() && it != shares.end())
              op.primitive_share = it->second;
        }
        // The fault is reported from image.fault; protocol problems go into image.error.
        if (!ran->errors.empty()) image.error = fmt::format("{}", fmt::join(ran->errors, "; "));
        return {};
      };
      if (auto r = run_image(); !r) {
        if (r.error().is_usage) return tl::unexpected(r.error());
        image.error = r.error().message;
      }
      result.images.push_back(std::move(image));
    }
  }
  progress.clear();
  return result;
}

}  // namespace fathom::pipeline
