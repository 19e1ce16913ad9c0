#include "target/simulator_memory.h"

#include <fmt/core.h>

#include <algorithm>
#include <string_view>

namespace fathom::target {
namespace {

// The harness paints the stack and finds the lowest word the operation overwrote; the simulator
// follows SP. They differ by exactly the stack a frame reserved but never wrote (painting cannot
// see it: newlib's _malloc_r reserves 12 bytes with `sub sp, #12` that its fast path never
// touches), which the simulator measures as the paint words left just above the deepest SP
// (WatchedExecution::unwritten_bytes). So painted + unwritten must equal the deepest-SP figure
// exactly; anything else is a disagreement.
// The harness leaves this much under its SP unpainted (its painting loop runs there), so the
// painted figure is never below it: an operation using less reads as exactly this.
constexpr uint64_t kHarnessUnpaintedBytes = 64;

// Whether the function holding `address` is the harness function `name` (fathom_harness.c);
// GCC may add a suffix (memory_run.constprop.0, timed_run.isra.0).
bool in_function(const elf::ElfImage& image, uint32_t address, std::string_view name) {
  const elf::Symbol* f = image.function_at(address);
  if (f == nullptr || f->name.rfind(name, 0) != 0) return false;
  return f->name.size() == name.size() || f->name[name.size()] == '.';
}

// The execution the harness's MEM record measured: the one called from memory_run (a board's
// layout, or an image whose host did not ask for memory in a timed run), else the first called
// from timed_run (RunParameters::memory_in_timed_run), else the last.
const WatchedExecution* measured_execution(const elf::ElfImage& image,
                                           const std::vector<WatchedExecution>& executions,
                                           const std::string& operation) {
  const WatchedExecution* first_timed = nullptr;
  const WatchedExecution* last = nullptr;
  for (const auto& e : executions) {
    if (!e.returned || e.operation != operation) continue;
    if (in_function(image, e.call_address, "memory_run")) return &e;
    if (first_timed == nullptr && in_function(image, e.call_address, "timed_run"))
      first_timed = &e;
    last = &e;
  }
  return first_timed != nullptr ? first_timed : last;
}

}  // namespace

void add_simulator_memory(const elf::ElfImage& image,
                          const std::vector<WatchedExecution>& executions,
                          model::OperationResult& op) {
  const WatchedExecution* chosen = measured_execution(image, executions, op.operation);
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
