#include "analysis/workflow.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <tuple>

namespace fathom::analysis {
namespace {

const model::OperationResult* find_op(const model::ImageResult& image, const std::string& name) {
  for (const auto& op : image.operations)
    if (op.operation == name) return &op;
  return nullptr;
}

std::vector<std::string> operations_of(const model::WorkflowVariant& v) {
  std::vector<std::string> ops;
  auto add = [&](const std::string& op) {
    if (std::find(ops.begin(), ops.end(), op) == ops.end()) ops.push_back(op);
  };
  for (const auto& s : v.steps)
    for (const auto& op : s.operations) add(op);
  for (const auto* refs : {&v.wire, &v.stored})
    for (const auto& ref : *refs) add(ref.substr(0, ref.rfind('.')));
  return ops;
}

// Fills `result` from `image`; returns "" or why the variant cannot be evaluated there.
std::string evaluate(const model::WorkflowVariant& v, const model::ImageResult& image,
                     model::WorkflowResult& result) {
  for (const auto& s : v.steps) {
    model::WorkflowStepResult step;
    step.name = s.name;
    step.operations = s.operations;
    for (const auto& name : s.operations) {
      const auto* op = find_op(image, name);
      if (!op->has_timing())
        return fmt::format("{} has no timing in this image ({})", name,
                           op->error.empty() ? "not timed" : op->error);
      step.cycles += op->cycles->median;
      if (!op->peak_stack_bytes)
        return fmt::format("{} has no peak stack figure in this image", name);
      step.peak_stack_bytes = std::max(step.peak_stack_bytes, *op->peak_stack_bytes);
      // An operation that allocates nothing may have no heap figure: it adds nothing.
      if (op->heap_peak_bytes)
        step.heap_peak_bytes = std::max(step.heap_peak_bytes, *op->heap_peak_bytes);
    }
    result.total_cycles += step.cycles;
    result.peak_stack_bytes = std::max(result.peak_stack_bytes, step.peak_stack_bytes);
    result.heap_peak_bytes = std::max(result.heap_peak_bytes, step.heap_peak_bytes);
    result.steps.push_back(std::move(step));
  }
  for (auto [refs, objects, total] :
       {std::tuple{&v.wire, &result.wire_objects, &result.wire_bytes},
        std::tuple{&v.stored, &result.stored_objects, &result.stored_bytes}}) {
    for (const auto& ref : *refs) {
      const auto dot = ref.rfind('.');
      const auto* op = find_op(image, ref.substr(0, dot));
      const auto it = op->object_bytes.find(ref.substr(dot + 1));
      if (it == op->object_bytes.end()) {
        std::vector<std::string> reported;
        for (const auto& entry : op->object_bytes) reported.push_back(entry.first);
        return fmt::format("{} did not report the size of '{}' (it reported: {})",
                           ref.substr(0, dot), ref.substr(dot + 1),
                           reported.empty() ? std::string("nothing")
                                            : fmt::format("{}", fmt::join(reported, ", ")));
      }
      objects->emplace_back(ref, it->second);
      *total += it->second;
    }
  }
  return "";
}

}  // namespace

std::vector<model::WorkflowResult> evaluate_workflows(const model::RunResult& run,
                                                      const std::vector<model::Workflow>& flows) {
  std::vector<model::WorkflowResult> results;
  for (const auto& w : flows) {
    for (const auto& v : w.variants) {
      const auto needed = operations_of(v);
      bool any = false;
      for (const auto& image : run.images) {
        const bool offers_all = std::all_of(needed.begin(), needed.end(), [&](const auto& op) {
          return find_op(image, op) != nullptr;
        });
        if (!offers_all) continue;
        any = true;
        model::WorkflowResult r;
        r.workflow = w.name;
        r.variant = v.name;
        r.configuration = image.configuration;
        r.board = image.board;
        r.clock_hz = image.provenance.clock_hz;
        if (std::string why = evaluate(v, image, r); !why.empty()) {
          model::WorkflowResult failed;
          failed.workflow = w.name;
          failed.variant = v.name;
          failed.configuration = image.configuration;
          failed.board = image.board;
          failed.error = std::move(why);
          results.push_back(std::move(failed));
        } else {
          results.push_back(std::move(r));
        }
      }
      if (!any) {
        model::WorkflowResult missing;
        missing.workflow = w.name;
        missing.variant = v.name;
        missing.error = fmt::format(
            "no image of the run has all of its operations ({}); they must be measured in one "
            "image",
            fmt::join(needed, ", "));
        results.push_back(std::move(missing));
      }
    }
  }
  return results;
}

std::vector<model::WorkflowVerdict> workflow_verdicts(
    const std::vector<model::WorkflowResult>& results) {
  std::vector<model::WorkflowVerdict> verdicts;
  std::vector<std::vector<const model::WorkflowResult*>> members;
  for (const auto& r : results) {
    if (!r.error.empty()) continue;
    size_t k = 0;
    while (k < verdicts.size() &&
           !(verdicts[k].workflow == r.workflow && verdicts[k].configuration == r.configuration &&
             verdicts[k].board == r.board))
      ++k;
    if (k == verdicts.size()) {
      verdicts.push_back({r.workflow, r.configuration, r.board, "", 0, {}});
      members.emplace_back();
    }
    members[k].push_back(&r);
  }
  std::vector<model::WorkflowVerdict> out;
  for (size_t k = 0; k < verdicts.size(); ++k) {
    if (members[k].size() < 2) continue;
    const auto* best = *std::min_element(members[k].begin(), members[k].end(),
                                         [](const auto* a, const auto* b) {
                                           return a->total_cycles < b->total_cycles;
                                         });
    model::WorkflowVerdict v = verdicts[k];
    v.cheapest = best->variant;
    v.cheapest_cycles = best->total_cycles;
    for (const auto* r : members[k]) {
      if (r == best) continue;
      const double ratio = best->total_cycles > 0 ? r->total_cycles / best->total_cycles : 0.0;
      v.others.push_back(
          {r->variant, r->total_cycles, ratio, (ratio - 1.0) * 100.0 <= model::kNoiseThresholdPercent});
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace fathom::analysis
