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
#include "sim/unicorn_store_shortcut.h"
#include "sim/observer_fanout.h"
#include "target/run_parameters.h"
#include "target/sim/slot_run.h"
#include "target/simulator_memory.h"

namespace fathom::target {
namespace {

// The memory watch's executions, named.
std::vector<WatchedExecution> watched(const profile::MemoryWatchOptions& options,
                                      const std::vector<profile::OperationMemory>& executions) {
  std::vector<WatchedExecution> out;
  for (const auto& e : executions)
    out.push_back({.operation = options.operations[e.operation].name,
                   .call_address = e.call_address,
                   .returned = e.returned,
                   .peak_stack_bytes = e.peak_stack_bytes(),
                   .deepest_pc = e.deepest_pc,
                   .unwritten_bytes = e.unwritten_bytes,
                   .heap_start_bytes = e.heap_start_bytes,
                   .heap_peak_bytes = e.heap_peak_bytes,
                   .allocations = e.allocations});
  return out;
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
  return fmt::format("sim hooks={} memory_watch={} primitive_share={} observers={} "
                     "untimed_kat_phase={} callers_watch_kat_phase={}",
                     static_cast<int>(settings_.hooks), settings_.memory_watch,
                     settings_.primitive_share, observers_.size(), settings_.untimed_kat_phase,
                     settings_.caller_observers_watch_kat_phase);
}

util::Result<SimTarget::BareMetalRun> SimTarget::run_bare_metal(const elf::ElfImage& image,
                                                                const model::Board& board,
                                                                sim::ExecutionObserver* observer,
                                                                uint64_t cycle_budget,
                                                                const std::vector<uint8_t>& vector_table) {
  auto machine = sim::Machine::create(board);
  if (!machine) return tl::unexpected(machine.error());
  if (auto r = (*machine)->load(image); !r) return tl::unexpected(r.error());
  if (!vector_table.empty() && board.flash())
    if (auto r = (*machine)->write_memory(board.flash()->origin, vector_table); !r)
      return tl::unexpected(r.error());
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
  auto watch_options = profile::memory_watch_options(image);
  const bool watch_memory =
      settings_.memory_watch && watch_options && mode != sim::HookMode::kBlockCountOnly;
  const bool record_share = settings_.primitive_share && !img.primitive_groups.empty() &&
                            mode != sim::HookMode::kBlockCountOnly;

  std::optional<uint32_t> kat_entry;
  const bool callers_watch_kat = settings_.caller_observers_watch_kat_phase && !observers_.empty();
  if (settings_.untimed_kat_phase && !callers_watch_kat && mode != sim::HookMode::kBlockCountOnly)
    if (const elf::Symbol* kat = image.find_symbol("kat_phase"); kat && kat->is_function)
      kat_entry = kat->address;

  // A machine with the run's observers; the caller's own observers watch the first only.
  SessionFactory make_session = [&](bool first) -> util::Result<std::unique_ptr<SimSession>> {
    auto session = std::make_unique<SimSession>();
    auto machine = sim::Machine::create(board, mode);
    if (!machine) return tl::unexpected(machine.error());
    session->machine = std::move(*machine);
    sim::Machine* m = session->machine.get();
    if (auto r = m->load(image); !r) return tl::unexpected(r.error());
    // The KAT phase counted only: when nothing of the caller's watches it (the machine also
    // checks that no observer is attached as it enters).
    if (kat_entry) m->set_untimed_from(*kat_entry);
    if (img.meter) {
      session->meter = img.meter;
      m->set_live_counter(img.meter->add_counter());
    }
    if (first)
      for (auto* o : observers_)
        if (o != nullptr) {
          o->attach([m](unsigned r) { return m->read_core_register(r); });
          session->observers.add(o);
          if (callers_watch_kat) session->callers.add(o);
        }
    // The simulator's own memory measurement.
    if (watch_memory) {
      profile::MemoryWatchOptions options = *watch_options;
      options.registers_after_each_instruction = mode == sim::HookMode::kPerInstruction;
      session->watch = std::make_unique<profile::MemoryWatch>(
          image, std::move(options), [m](unsigned r) { return m->read_core_register(r); });
      session->watch->set_memory_reader(
          [m](uint32_t address) { return m->read_memory_word(address); });
      session->observers.add(session->watch.get());
    }
    // Primitive share (docs/PROFILER.md): a call tracker over the run when the image's
    // libraries name groups of functions. Observing never changes the counts.
    if (record_share) {
      auto recorder = profile::PrimitiveShareRecorder::create(image, img.primitive_groups);
      if (!recorder) return tl::unexpected(recorder.error());
      session->share = std::move(*recorder);
      session->observers.add(session->share->observer());
    }
    m->set_observer(session->observers.get());
    if (auto r = m->write_memory(encoded->address, encoded->bytes); !r)
      return tl::unexpected(r.error());
    return session;
  };

  // Slot by slot (target/sim/slot_run.h): on spare cores at once, with the same results.
  auto slots = run_slots(plan_slots(image, params), make_session, params.cycle_budget,
                         settings_.cores, observers_.empty());
  if (!slots) return tl::unexpected(slots.error());

  protocol::DecodedStream decoded = protocol::decode_stream(
      slots->console, std::span<const protocol::CycleProbe>(slots->probes), slots->pieces);

  TargetRun run;
  run.measured = {.cycles = true, .instructions = true, .observation = true};
  run.origin["target"] = "sim";
  run.fault = slots->fault;
  run.completed = decoded.completed && slots->exited && !slots->fault && slots->errors.empty();
  run.errors = std::move(slots->errors);
  for (auto& e : decoded.errors) run.errors.push_back(std::move(e));
  run.operations = std::move(decoded.operations);
  run.console_log = std::move(decoded.log_lines);
  run.total_cycles = slots->cycles - slots->untimed_instructions;  // what the model timed
  run.total_instructions = slots->instructions;
  run.untimed_instructions = slots->untimed_instructions;
  run.timing_model = std::move(slots->timing_model);
  run.isolation = std::move(decoded.isolation);
  run.run_order = std::move(decoded.run_order);
  // Never a silent inexact count: the block mode says when it could not place an event exactly
  // (sim::RunOutcome::inexact_events; 0 for fathom's images, and tests check it).
  if (slots->inexact_events > 0)
    run.errors.push_back(fmt::format(
        "the simulator's block mode could not place {} events exactly (a divide's operands read "
        "at its block's start, a device access no instruction of its block makes, or an IT "
        "condition after a flag-setting instruction it could not see): cycles near them may be "
        "off; --sim-hooks per-instruction gives the exact counts",
        slots->inexact_events));
  // The firmware says how it isolated operations; the simulator knows what it did.
  if (run.isolation == "snapshot" && !slots->snapshot)
    run.errors.push_back("the firmware reported snapshot isolation, but the simulator took no "
                         "snapshot");
  run.host_seconds = slots->host_seconds;
  run.host_machines = slots->machines;
  run.host_ran_again = slots->ran_again_alone;
  if (watch_memory) {
    const std::vector<WatchedExecution> executions = watched(*watch_options, slots->executions);
    for (auto& op : run.operations) add_simulator_memory(image, executions, op);
  }
  for (auto& op : run.operations)
    if (auto it = slots->shares.find(op.operation); it != slots->shares.end()) {
      op.primitive_share = it->second.share;
      op.primitive_calls = it->second.calls_per_execution;
    }
  return run;
}

std::string SimTarget::engine_note() {
  const std::string& id = sim::unicorn_build_id();
  return fmt::format("Unicorn's store path: {} (libunicorn build {}; docs/PERFORMANCE.md)",
                     sim::unicorn_store_shortcut_active()
                         ? "its per-store page collection is skipped"
                         : "unchanged, this Unicorn build is not the one the skip was verified on",
                     id.empty() ? "unknown" : id);
}

}  // namespace fathom::target
