#include "target/sim_target.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <memory>

#include "elf/elf_image.h"
#include "protocol/stream_decoder.h"
#include "profile/memory_watch.h"
#include "sim/machine.h"
#include "sim/observer_fanout.h"

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

// Layout of the harness's `fathom_params` object (firmware/harness/fathom_harness.c).
constexpr uint32_t kParamsMagic = 0x50485446u;
constexpr size_t kOnlyOpsBytes = 512;

util::Result<std::vector<uint8_t>> encode_params(const RunRequest& req) {
  std::string only;
  for (const auto& op : req.operations) {
    if (!only.empty()) only += ',';
    only += op;
  }
  if (only.size() >= kOnlyOpsBytes)
    return util::fail(fmt::format("too many operations selected ({} bytes of names; at most {})",
                                  only.size(), kOnlyOpsBytes - 1));
  std::vector<uint8_t> bytes(12 + kOnlyOpsBytes, 0);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
  };
  put32(0, kParamsMagic);
  put32(4, req.runs);
  put32(8, req.warmup);
  std::memcpy(bytes.data() + 12, only.data(), only.size());
  return bytes;
}

}  // namespace

util::Result<TargetRun> SimTarget::run(const RunRequest& req) {
  auto image = elf::ElfImage::load(req.elf);
  if (!image) return tl::unexpected(image.error());
  auto machine = sim::Machine::create(*req.board, mode_);
  if (!machine) return tl::unexpected(machine.error());
  if (auto r = (*machine)->load(*image); !r) return tl::unexpected(r.error());
  // The simulator's own memory measurement, beside any observer of the caller's.
  std::unique_ptr<profile::MemoryWatch> watch;
  auto watch_options = profile::memory_watch_options(*image);
  sim::ObserverFanout observers;
  observers.add(observer_);
  if (memory_watch_ && watch_options && mode_ != sim::HookMode::kBlockCountOnly) {
    watch_options->registers_after_each_instruction = mode_ == sim::HookMode::kPerInstruction;
    sim::Machine* m = machine->get();
    watch = std::make_unique<profile::MemoryWatch>(
        *image, *watch_options, [m](unsigned r) { return m->read_core_register(r); });
    watch->set_memory_reader([m](uint32_t address) { return m->read_memory_word(address); });
    observers.add(watch.get());
  }
  (*machine)->set_observer(observers.get());

  const elf::Symbol* params = image->find_symbol("fathom_params");
  if (!params)
    return util::fail(fmt::format("'{}' has no fathom_params symbol: it was not built with the "
                                  "fathom harness",
                                  req.elf.string()));
  auto bytes = encode_params(req);
  if (!bytes) return tl::unexpected(bytes.error());
  if (params->size_bytes != bytes->size())
    return util::fail(fmt::format("'{}': fathom_params is {} bytes, expected {} (harness and "
                                  "host disagree; rebuild the image)",
                                  req.elf.string(), params->size_bytes, bytes->size()));
  const model::MemoryRegion* flash = req.board->flash();
  if (!flash || params->address < flash->origin ||
      uint64_t{params->address} + params->size_bytes > uint64_t{flash->origin} + flash->length_bytes)
    return util::fail(fmt::format("'{}': fathom_params is at {:#010x}, outside flash; the startup "
                                  "code would overwrite the run parameters (rebuild the image)",
                                  req.elf.string(), params->address));
  if (auto r = (*machine)->write_memory(params->address, *bytes); !r)
    return tl::unexpected(r.error());

  sim::RunOutcome outcome = (*machine)->run(req.cycle_budget);

  std::vector<protocol::CycleProbe> probes;
  probes.reserve(outcome.cycle_counter_reads.size());
  for (const auto& r : outcome.cycle_counter_reads) probes.push_back({r.value, r.instructions});
  protocol::DecodedStream decoded =
      protocol::decode_stream(outcome.console, std::span<const protocol::CycleProbe>(probes));

  TargetRun run;
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
    for (auto& op : run.operations) add_simulator_memory(*image, *watch_options, executions, op);
  }
  return run;
}

}  // namespace fathom::target
