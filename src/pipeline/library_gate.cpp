#include "pipeline/library_gate.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace fathom::pipeline {

const char* const kGateNotTimed =
    "library gate: its known-answer phase is the check, its timed run does nothing";

namespace {

// Drops everything measured in the timed and memory runs; KAT results stay as they are.
void drop_timing(model::OperationResult& op) {
  op.cycle_samples.clear();
  op.instruction_samples.clear();
  op.cycles.reset();
  op.instructions.reset();
  op.peak_stack_bytes.reset();
  op.heap_peak_bytes.reset();
  op.heap_start_bytes.reset();
  op.allocations.reset();
  op.sim_peak_stack_bytes.reset();
  op.sim_heap_peak_bytes.reset();
  op.sim_allocations.reset();
  op.memory_mismatch.clear();
  op.primitive_share.clear();
  op.primitive_calls.clear();
}

}  // namespace

void enforce_kat_gate(model::OperationResult& op) {
  if (op.kat == model::KatStatus::kPassed) return;
  drop_timing(op);
  if (op.error.empty()) {
    std::vector<std::string> failed;
    for (const auto& v : op.kat_vectors)
      if (!v.passed) failed.push_back(v.name);
    op.error = op.kat == model::KatStatus::kFailed
                   ? fmt::format("known-answer test failed: {}", fmt::join(failed, ", "))
                   : "known-answer tests did not run";
  }
}

std::vector<std::string> with_gate_operations(const std::vector<std::string>& operations,
                                              const build::LibraryDescription& library) {
  if (operations.empty()) return operations;  // all operations: the gates are among them
  std::vector<std::string> out = operations;
  for (const auto& gate : library.gate_operations)
    if (std::find(out.begin(), out.end(), gate) == out.end()) out.push_back(gate);
  return out;
}

bool enforce_library_gate(std::vector<model::OperationResult>& operations,
                          const build::LibraryDescription& library) {
  std::string why;
  for (const auto& gate : library.gate_operations) {
    const auto it = std::find_if(operations.begin(), operations.end(),
                                 [&](const auto& op) { return op.operation == gate; });
    if (it == operations.end()) {
      why = fmt::format("{}: did not run", gate);
    } else if (it->kat != model::KatStatus::kPassed) {
      why = fmt::format("{}: {}", gate,
                        it->kat == model::KatStatus::kFailed ? "known-answer test failed"
                                                             : "known-answer tests did not run");
    }
    if (!why.empty()) break;
  }
  if (why.empty()) {
    // The gate held. Its known-answer phase is the check; its timed run does nothing (a wolfSSL
    // image with its self-test measured 71.6-124.7 M cycles, docs/CLI.md "Not timed": too much
    // to repeat per timed run), so the figures of that run are probe residue, not the gate's
    // cost: none of them is reported.
    for (auto& op : operations)
      if (std::find(library.gate_operations.begin(), library.gate_operations.end(),
                    op.operation) != library.gate_operations.end()) {
        drop_timing(op);
        op.not_timed = kGateNotTimed;
      }
    return true;
  }
  const std::string failure =
      library.gate_failure.empty() ? std::string("library gate failed") : library.gate_failure;
  for (auto& op : operations) {
    drop_timing(op);
    if (op.error.empty()) op.error = fmt::format("{} ({})", failure, why);
  }
  return false;
}

}  // namespace fathom::pipeline
