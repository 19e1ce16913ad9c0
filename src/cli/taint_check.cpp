#include "cli/taint_check.h"

#include <fmt/core.h>

#include <algorithm>
#include <memory>

#include "cli/suite_session.h"
#include "elf/debug_info.h"
#include "elf/elf_image.h"
#include "pipeline/suite_runner.h"
#include "target/sim/sim_target.h"
#include "util/error.h"

namespace fathom::cli {

const char* to_string(TaintVerdict v) {
  switch (v) {
    case TaintVerdict::kLeak: return "leak";
    case TaintVerdict::kNoFinding: return "no finding";
    case TaintVerdict::kNotChecked: return "not checked";
    case TaintVerdict::kAllowed: return "allowed";
  }
  return "?";
}

uint64_t TaintCheck::count(profile::TaintClass c) const {
  return static_cast<uint64_t>(std::count_if(findings.begin(), findings.end(),
                                             [c](const TaintSite& s) { return s.finding.cls == c; }));
}

TaintCheck taint_check(const model::Suite& suite, const std::string& configuration,
                       const std::string& board, const std::string& operation) {
  TaintCheck out;
  out.configuration = configuration;
  out.board = board;
  out.operation = operation;
  pipeline::RunOptions options;
  options.configurations = {configuration};
  options.boards = {board};
  options.operations = {operation};
  options.runs = 1;
  options.warmup = 0;
  options.secret_variants = true;
  options.secret_first = 0;
  options.fresh = true;
  options.target.kind = model::TargetKind::kSim;
  // Per instruction: the tracker reads the registers right after each one.
  options.target.sim.hooks = target::SimSettings::Hooks::kPerInstruction;
  options.target.sim.primitive_share = false;
  std::unique_ptr<profile::TaintTracker> tracker;
  std::filesystem::path elf_path;
  options.target_for_image = [&](const model::Board& b, const elf::ElfImage& image,
                                 const std::filesystem::path& elf)
      -> util::Result<std::unique_ptr<target::Target>> {
    std::vector<sim::ExecutionObserver*> observers;
    if (!tracker) {
      elf_path = elf;
      tracker = std::make_unique<profile::TaintTracker>(profile::taint_options_for(image, b.core));
      observers.push_back(tracker.get());
    }
    return std::make_unique<target::SimTarget>(options.target.sim, std::move(observers));
  };
  model::Suite one = suite;
  one.workflows.clear();
  one.fairness.reset();
  model::RunResult result;
  try {
    result = run_suite_or_throw(one, options);
  } catch (const util::FatalError& e) {
    out.reason = e.what();
    return out;
  }
  if (result.images.empty() || !tracker) {
    out.reason = "no image was built and run";
    return out;
  }
  const model::ImageResult& image = result.images.front();
  const model::OperationResult* op = nullptr;
  for (const auto& o : image.operations)
    if (o.operation == operation) op = &o;
  // Correctness gates every verdict: nothing is said of code whose known answers failed.
  if (!image.error.empty() || op == nullptr || !op->has_timing()) {
    out.reason = !image.error.empty() ? image.error
                 : op == nullptr      ? "the image did not report it"
                 : !op->error.empty() ? op->error
                                      : "its known-answer test did not pass";
    return out;
  }
  out.marked_bytes = tracker->marked_bytes();
  out.tainted_instructions = tracker->tainted_in_window();
  if (tracker->marked_bytes() == 0) {
    out.reason = "its secret hook declares no secret bytes (fathom_ct_secret)";
    return out;
  }
  if (tracker->windows() == 0 || tracker->tainted_in_window() == 0) {
    out.reason = "no instruction of the timed run read secret data";
    return out;
  }
  std::vector<profile::TaintFinding> found = tracker->findings();
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.order < b.order; });
  auto elf = elf::ElfImage::load(elf_path);
  if (!elf) {
    out.reason = elf.error().message;
    return out;
  }
  auto debug = elf::DebugInfo::open(elf_path);
  out.findings = profile::name_taint_sites(found, *elf, debug ? &*debug : nullptr);
  out.verdict = out.findings.empty() ? TaintVerdict::kNoFinding : TaintVerdict::kLeak;
  return out;
}

}  // namespace fathom::cli
