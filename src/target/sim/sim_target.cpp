#include "target/sim/sim_target.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "elf/elf_image.h"
#include "protocol/stream_decoder.h"
#include "profile/memory_watch.h"
#include "profile/primitive_share.h"
#include "sim/machine.h"
#include "sim/observer_fanout.h"
#include "target/run_parameters.h"

namespace fathom::target {
namespace {

// The harness paints the stack and finds the lowest word the operation overwrote; the simulator
// follows SP. They differ by exactly the stack a frame reserved but never wrote (painting cannot
// see it: newlib's _malloc_r reserves 12 bytes with `sub sp, #12` that its fast path never
// touches), which the simulator measures as the paint words left just above the deepest SP
// (OperationMemory::unwritten_bytes). So painted + unwritten must equal the deepest-SP figure
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

// Copies the simulator's figures for the execution the harness's MEM record comes from (the
// one called from memory_run; the last one if that function is not found) and notes a
// disagreement.
void add_simulator_memory(const elf::ElfImage& image, const profile::MemoryWatchOptions& options,
                          const std::vector<profile::OperationMemory>& executions,
                          model::OperationResult& op) {
  const profile::OperationMemory* chosen = nullptr;
  for (const auto& e : executions) {
    if (!e.returned || options.operations[e.operation].name != op.operation) continue;
    if (chosen == nullptr || !in_memory_run(image, chosen->call_address)) chosen = &e;
  }
  if (chosen == nullptr) return;
  op.sim_peak_stack_bytes = chosen->peak_stack_bytes();
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

}  // namespace

sim::HookMode SimTarget::hook_mode(SimSettings::Hooks hooks) {
  switch (hooks) {
    case SimSettings::Hooks::kPerInstruction: return sim::HookMode::kPerInstruction;
    case SimSettings::Hooks::kBlockCountOnly: return sim::HookMode::kBlockCountOnly;
    case SimSettings::Hooks::kBlock: break;
  }
  return sim::HookMode::kBlock;
}

std::string SimTarget::measurement_key() const {
  return fmt::format("sim hooks={} memory_watch={} primitive_share={} observers={}",
                     static_cast<int>(settings_.hooks), settings_.memory_watch,
                     settings_.primitive_share, observers_.size());
}

util::Result<SimTarget::BareMetalRun> SimTarget::run_bare_metal(const elf::ElfImage& image,
                                                                const model::Board& board,
                                                                sim::ExecutionObserver* observer,
                                                                uint64_t cycle_budget) {
  auto machine = sim::Machine::create(board);
  if (!machine) return tl::unexpected(machine.error());
  if (auto r = (*machine)->load(image); !r) return tl::unexpected(r.error());
  (*machine)->set_observer(observer);
  BareMetalRun out;
  out.outcome = (*machine)->run(cycle_budget);
  out.timing_model = (*machine)->timing_model_name();
  return out;
}

util::Result<TargetRun> SimTarget::run(const ImageToRun& img, const RunParameters& params) {
  const elf::ElfImage& image = *img.elf;
  const model::Board& board = *img.board;
  const std::string display = img.elf_path.string();
  const sim::HookMode mode = hook_mode(settings_.hooks);
  auto encoded = encode_run_parameters(image, board, params, display);
  if (!encoded) return tl::unexpected(encoded.error());
  auto machine = sim::Machine::create(board, mode);
  if (!machine) return tl::unexpected(machine.error());
  if (auto r = (*machine)->load(image); !r) return tl::unexpected(r.error());
  sim::ObserverFanout observers;
  for (auto* o : observers_) observers.add(o);
  // The simulator's own memory measurement.
  std::unique_ptr<profile::MemoryWatch> watch;
  auto watch_options = profile::memory_watch_options(image);
  if (settings_.memory_watch && watch_options && mode != sim::HookMode::kBlockCountOnly) {
    watch_options->registers_after_each_instruction = mode == sim::HookMode::kPerInstruction;
    sim::Machine* m = machine->get();
    watch = std::make_unique<profile::MemoryWatch>(
        image, *watch_options, [m](unsigned r) { return m->read_core_register(r); });
    watch->set_memory_reader([m](uint32_t address) { return m->read_memory_word(address); });
    observers.add(watch.get());
  }
  // Primitive share (docs/PROFILER.md): a call tracker over the run when the image's libraries
  // name groups of functions. Observing never changes the counts.
  std::unique_ptr<profile::PrimitiveShareRecorder> share;
  if (settings_.primitive_share && !img.primitive_groups.empty() &&
      mode != sim::HookMode::kBlockCountOnly) {
    auto recorder = profile::PrimitiveShareRecorder::create(image, img.primitive_groups);
    if (!recorder) return tl::unexpected(recorder.error());
    share = std::move(*recorder);
    observers.add(share->observer());
  }
  (*machine)->set_observer(observers.get());
  if (auto r = (*machine)->write_memory(encoded->address, encoded->bytes); !r)
    return tl::unexpected(r.error());

  sim::RunOutcome outcome = (*machine)->run(params.cycle_budget);

  std::vector<protocol::CycleProbe> probes;
  probes.reserve(outcome.cycle_counter_reads.size());
  for (const auto& r : outcome.cycle_counter_reads) probes.push_back({r.value, r.instructions});
  protocol::DecodedStream decoded =
      protocol::decode_stream(outcome.console, std::span<const protocol::CycleProbe>(probes));

  TargetRun run;
  run.measured = {.cycles = true, .instructions = true, .observation = true};
  run.origin["target"] = "sim";
  run.fault = outcome.fault;
  run.completed = decoded.completed && outcome.exited && !outcome.fault;
  run.errors = std::move(decoded.errors);
  run.operations = std::move(decoded.operations);
  run.console_log = std::move(decoded.log_lines);
  run.total_cycles = outcome.cycles;
  run.total_instructions = outcome.instructions;
  run.timing_model = (*machine)->timing_model_name();
  run.isolation = std::move(decoded.isolation);
  run.run_order = std::move(decoded.run_order);
  // The firmware says how it isolated operations; the simulator knows what it did.
  if (run.isolation == "snapshot" && !outcome.isolation_snapshot)
    run.errors.push_back("the firmware reported snapshot isolation, but the simulator took no "
                         "snapshot");
  run.host_seconds = outcome.host_seconds;
  if (watch) {
    const auto executions = watch->executions();
    for (auto& op : run.operations) add_simulator_memory(image, *watch_options, executions, op);
  }
  if (share) {
    const auto shares = share->finish();
    for (auto& op : run.operations)
      if (auto it = shares.find(op.operation); it != shares.end()) {
        op.primitive_share = it->second.share;
        op.primitive_calls = it->second.calls_per_execution;
      }
  }
  return run;
}

}  // namespace fathom::target
