#include "target/simulator_memory.h"

#include <fmt/core.h>

#include <algorithm>

namespace fathom::target {
namespace {

// The harness paints the stack and finds the lowest word the operation overwrote; the simulator
// follows SP. They differ by exactly the stack a frame reserved but never wrote (painting cannot
// see it: newlib's _malloc_r reserves 12 bytes with `sub sp, #12` that its fast path never
// touches), which the simulator measures as the paint words left just above the deepest SP
// (WatchedExecution::unwritten_bytes). So painted + unwritten must equal the deepest-SP figure
// exactly; anything else is a disagreement.
// memory_run leaves this much under its SP unpainted (its own loop runs there), so the painted
// figure is never below it: an operation using less reads as exactly this.
constexpr uint64_t kHarnessUnpaintedBytes = 64;

// The function that runs the harness's untimed memory execution (fathom_harness.c); GCC may
// add a suffix (memory_run.constprop.0).
bool in_memory_run(const elf::ElfImage& image, uint32_t address) {
  const elf::Symbol* f = image.function_at(address);
  return f != nullptr && f->name.rfind("memory_run", 0) == 0;
}

}  // namespace

void add_simulator_memory(const elf::ElfImage& image,
                          const std::vector<WatchedExecution>& executions,
                          model::OperationResult& op) {
  const WatchedExecution* chosen = nullptr;
  for (const auto& e : executions) {
    if (!e.returned || e.operation != op.operation) continue;
    if (chosen == nullptr || !in_memory_run(image, chosen->call_address)) chosen = &e;
  }
  if (chosen == nullptr) return;
  op.sim_peak_stack_bytes = chosen->peak_stack_bytes;
  op.sim_heap_peak_bytes = chosen->heap_peak_bytes - chosen->heap_start_bytes;
  op.sim_allocations = chosen->allocations;
  if (!op.peak_stack_bytes || !op.heap_peak_bytes || !op.allocations) return;
  std::vector<std::string> problems;
  const uint64_t painted = *op.peak_stack_bytes;
  const uint64_t written = *op.sim_peak_stack_bytes > chosen->unwritten_bytes
                               ? *op.sim_peak_stack_bytes - chosen->unwritten_bytes
                               : 0;
  if (painted != std::max(written, kHarnessUnpaintedBytes))
    problems.push_back(fmt::format("peak stack {} bytes painted by the harness, {} from the "
                                   "deepest SP the simulator saw (reached at {:#x} {}), of which "
                                   "{} were never written",
                                   painted, *op.sim_peak_stack_bytes, chosen->deepest_pc,
                                   image.describe_address(chosen->deepest_pc),
                                   chosen->unwritten_bytes));
  if (*op.heap_peak_bytes != *op.sim_heap_peak_bytes)
    problems.push_back(fmt::format("heap peak {} bytes from the harness, {} seen at the "
                                   "allocator by the simulator",
                                   *op.heap_peak_bytes, *op.sim_heap_peak_bytes));
  if (op.heap_start_bytes && *op.heap_start_bytes != chosen->heap_start_bytes)
    problems.push_back(fmt::format("heap in use at the start {} bytes from the harness, {} seen "
                                   "at the allocator by the simulator",
                                   *op.heap_start_bytes, chosen->heap_start_bytes));
  if (*op.allocations != *op.sim_allocations)
    problems.push_back(fmt::format("{} allocations from the harness, {} seen by the simulator",
                                   *op.allocations, *op.sim_allocations));
  std::string text;
  for (const auto& p : problems) text += (text.empty() ? "" : "; ") + p;
  if (!text.empty())
    op.memory_mismatch = "memory measurements disagree: " + text +
                         " (one of them is wrong; see docs/PROFILER.md)";
}


}  // namespace fathom::target
