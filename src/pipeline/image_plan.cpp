#include "pipeline/image_plan.h"

#include <algorithm>

#include "pipeline/library_gate.h"
#include "suite/board_loader.h"
#include "util/version.h"

namespace fathom::pipeline {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

model::Provenance base_provenance(const model::Configuration& cfg, const std::string& board_name,
                                  const PlanInputs& inputs) {
  model::Provenance prov;
  prov.tool_version = util::kToolVersion;
  prov.tool_git_revision = util::kToolGitRevision;
  prov.compiler = inputs.compiler;
  prov.board = board_name;
  prov.library = cfg.library;
  prov.libc = cfg.libc;
  prov.config_defines = cfg.defines;
  prov.config_undefines = cfg.undefines;
  // A linked-in library's options, named after it ("wolfssl:WOLFSSL_TLS13").
  for (const auto& [library, options] : cfg.library_options) {
    for (const auto& d : options.defines) prov.config_defines.push_back(library + ":" + d);
    for (const auto& u : options.undefines) prov.config_undefines.push_back(library + ":" + u);
  }
  prov.runs = inputs.runs;
  prov.warmup = inputs.warmup;
  return prov;
}

util::Result<ImagePlan> plan_image(const model::Configuration& cfg, const std::string& board_name,
                                   const PlanInputs& inputs) {
  ImagePlan plan;
  plan.configuration = &cfg;
  plan.provenance = base_provenance(cfg, board_name, inputs);
  model::Provenance& prov = plan.provenance;
  auto board = suite::load_board(inputs.firmware_dir / "boards", board_name);
  if (!board) return tl::unexpected(board.error());
  plan.board = std::move(*board);
  prov.core = plan.board.core;
  prov.clock_hz = plan.board.clock_hz;
  prov.stack_reserve_bytes = plan.board.stack_bytes;

  std::vector<std::string> names = {cfg.library};
  names.insert(names.end(), cfg.with_libraries.begin(), cfg.with_libraries.end());
  for (const auto& name : names) {
    auto lib = build::load_library(inputs.firmware_dir, name);
    if (!lib) return tl::unexpected(lib.error());
    if (inputs.lock)
      if (const auto* entry = inputs.lock->find(lib->source))
        prov.source_sha256[entry->name] = entry->sha256;
    plan.libraries.push_back(std::move(*lib));
  }
  // Libraries linked in: their gate operations (unless linked without their operations, which
  // leaves out the workloads that define them), primitive groups and sources count for the
  // image too.
  plan.gate = plan.libraries.front();
  prov.library_version = plan.gate.version;
  for (size_t i = 1; i < plan.libraries.size(); ++i) {
    const auto& extra = plan.libraries[i];
    prov.library += "+" + extra.name;
    prov.library_version += "+" + extra.version;
    if (cfg.options_of(extra.name).operations)
      for (const auto& g : extra.gate_operations)
        if (!contains(plan.gate.gate_operations, g)) plan.gate.gate_operations.push_back(g);
    for (const auto& [group, patterns] : extra.primitive_groups) {
      auto& into = plan.gate.primitive_groups[group];
      into.insert(into.end(), patterns.begin(), patterns.end());
    }
  }
  // The library's gate operations always run (pipeline/library_gate.h).
  const bool own = !inputs.operations_from_command_line && !cfg.operations.empty();
  plan.operations = with_gate_operations(own ? cfg.operations : inputs.operations, plan.gate);
  return plan;
}

}  // namespace fathom::pipeline
