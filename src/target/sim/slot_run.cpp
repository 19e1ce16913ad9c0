#include "target/sim/slot_run.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <thread>

#include "elf/harness_operations.h"

namespace fathom::target {
namespace {

constexpr size_t kMaxOperations = 64;  // FATHOM_MAX_OPS (firmware/harness/fathom_harness.h)

// A symbol of 4 bytes named `name` inside [begin, end).
std::optional<uint32_t> counter_in(const elf::ElfImage& image, const std::string& name,
                                   uint32_t begin, uint32_t end) {
  for (const auto& s : image.symbols())
    if (s.name == name && !s.is_function && s.size_bytes == 4 && s.address >= begin &&
        s.address + 4 <= end)
      return s.address;
  return std::nullopt;
}

// What is left of `budget` after `used` cycles (a piece may end a little past it).
uint64_t left(uint64_t budget, uint64_t used) { return used < budget ? budget - used : 0; }

uint32_t word_at(const std::vector<uint8_t>& bytes, uint32_t offset) {
  uint32_t v = 0;
  std::memcpy(&v, bytes.data() + offset, sizeof v);
  return v;
}

void set_word(std::vector<uint8_t>& bytes, uint32_t offset, uint32_t v) {
  std::memcpy(bytes.data() + offset, &v, sizeof v);
}

// Where a piece starts in its machine's accumulated outcome.
struct Mark {
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  size_t console = 0;
  size_t reads = 0;
  size_t executions = 0;
  uint64_t inexact_events = 0;
  uint64_t untimed_instructions = 0;
};

Mark mark(const SimSession& s) {
  return {s.outcome.cycles, s.outcome.instructions, s.outcome.console.size(),
          s.outcome.cycle_counter_reads.size(), s.watch ? s.watch->executions().size() : 0,
          s.outcome.inexact_events, s.outcome.untimed_instructions};
}

// What ran between two stops of one machine.
struct Piece {
  size_t session = 0;
  std::string console;
  std::vector<sim::CycleCounterRead> reads;  // instructions counted from the piece's start
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  uint64_t inexact_events = 0;
  uint64_t untimed_instructions = 0;  // of `instructions`, counted without the model
  std::vector<profile::OperationMemory> executions;
  std::optional<model::Fault> fault;
  bool exited = false;
  std::optional<sim::IsolationPause> pause;
  std::vector<uint8_t> persistent;  // the persistent range at its end
};

Piece take_piece(const SimSession& s, size_t index, const Mark& from,
                 std::pair<uint32_t, uint32_t> persistent) {
  const sim::RunOutcome& o = s.outcome;
  Piece p;
  p.session = index;
  p.console = o.console.substr(from.console);
  p.reads.assign(o.cycle_counter_reads.begin() + static_cast<std::ptrdiff_t>(from.reads),
                 o.cycle_counter_reads.end());
  for (auto& r : p.reads) r.instructions -= from.instructions;
  p.cycles = o.cycles - from.cycles;
  p.instructions = o.instructions - from.instructions;
  p.inexact_events = o.inexact_events - from.inexact_events;
  p.untimed_instructions = o.untimed_instructions - from.untimed_instructions;
  if (s.watch) {
    auto all = s.watch->executions();
    p.executions.assign(all.begin() + static_cast<std::ptrdiff_t>(from.executions), all.end());
  }
  p.fault = o.fault;
  p.exited = o.exited;
  p.pause = o.pause;
  if (persistent.second > persistent.first)
    if (auto bytes = s.machine->read_memory(persistent.first, persistent.second - persistent.first))
      p.persistent = std::move(*bytes);
  return p;
}

bool paused_for(const Piece& p, uint32_t slot) {
  return p.pause && p.pause->restore && p.pause->slot == slot;
}

// The state every operation's slot starts from (besides the snapshot itself).
struct SlotStart {
  std::vector<uint8_t> persistent;
  uint32_t cyccnt = 0;
};

// What machine `index` of a run is doing, for the progress display.
void note(SimSession& s, size_t index, std::string what) {
  if (s.meter) s.meter->set_activity(index, std::move(what));
}

// Runs slot `k` on `s` from `start` for at most `budget` cycles.
Piece run_slot(SimSession& s, size_t index, uint32_t k, const SlotStart& start,
               std::pair<uint32_t, uint32_t> persistent, uint64_t budget,
               const SlotPlan& plan) {
  note(s, index, k <= plan.operations.size() ? plan.operations[k - 1] : "");
  s.machine->restore_isolation(k);
  (void)s.machine->write_memory(persistent.first, start.persistent);
  s.machine->set_cycle_counter(start.cyccnt);
  const Mark from = mark(s);
  s.outcome = s.machine->resume(budget);
  return take_piece(s, index, from, persistent);
}

// One attempt; `rerun_alone` is set when the slots of several machines cannot be combined.
struct Attempt {
  SlotRun run;
  bool rerun_alone = false;
};

util::Result<Attempt> attempt(const SlotPlan& plan, const SessionFactory& make_session,
                              uint64_t budget, unsigned extra_machines) {
  const auto wall_start = std::chrono::steady_clock::now();
  std::vector<std::unique_ptr<SimSession>> sessions;
  auto first = make_session(true);
  if (!first) return tl::unexpected(first.error());
  sessions.push_back(std::move(*first));
  SimSession& m0 = *sessions[0];
  const auto persistent = m0.machine->persistent_range();
  // Without the harness's counters the firmware drives its isolation alone: one piece.
  m0.machine->set_isolation_pauses(plan.next_seq_address != 0);

  std::vector<Piece> pieces;
  Attempt out;
  SlotRun& run = out.run;
  auto finish = [&]() -> util::Result<Attempt> {
    uint64_t instructions = 0;
    for (const Piece& p : pieces) {
      run.pieces.push_back({run.console.size(), 0, run.probes.size()});
      run.console += p.console;
      for (const auto& r : p.reads) run.probes.push_back({r.value, instructions + r.instructions});
      instructions += p.instructions;
      run.cycles += p.cycles;
      run.inexact_events += p.inexact_events;
      run.untimed_instructions += p.untimed_instructions;
      run.executions.insert(run.executions.end(), p.executions.begin(), p.executions.end());
    }
    run.instructions = instructions;
    if (!pieces.empty()) {
      run.fault = pieces.back().fault;
      run.exited = pieces.back().exited;
    }
    run.snapshot = m0.outcome.isolation_snapshot;
    run.timing_model = m0.machine->timing_model_name();
    run.host_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return std::move(out);
  };

  // Boot, the snapshot, the KAT phase.
  note(m0, 0, "known-answer tests");
  m0.outcome = m0.machine->run(budget);
  if (!m0.outcome.pause) {  // no snapshot: the image ran whole (or stopped before it)
    pieces.push_back(take_piece(m0, 0, Mark{}, persistent));
    return finish();
  }
  const uint64_t snapshot_cycles = m0.outcome.cycles;
  const uint64_t snapshot_instructions = m0.outcome.instructions;
  // The KAT phase runs watched by the caller's observers only (SimSession::callers): the run's
  // own would see nothing they report, at their full cost per instruction.
  m0.machine->set_observer(m0.callers.get());
  m0.outcome = m0.machine->resume(left(budget, m0.outcome.cycles));
  m0.machine->set_observer(m0.observers.get());
  pieces.push_back(take_piece(m0, 0, Mark{}, persistent));
  if (!m0.outcome.pause || !m0.outcome.pause->restore) return finish();
  if (m0.outcome.pause->slot != 1) {
    run.errors.push_back(fmt::format("the firmware asked for slot {} after its KAT phase; "
                                     "the simulator expected slot 1",
                                     m0.outcome.pause->slot));
    return finish();
  }
  if (pieces[0].persistent.size() != persistent.second - persistent.first)
    return util::fail("cannot read the image's persistent range after its KAT phase");
  SlotStart start{pieces[0].persistent, m0.machine->cycle_counter()};
  const uint32_t seq_at = plan.next_seq_address - persistent.first;
  const uint32_t failures_at = plan.kat_failures_address - persistent.first;
  const uint32_t seq0 = word_at(start.persistent, seq_at);
  const uint32_t failures0 = word_at(start.persistent, failures_at);
  const uint64_t prefix_cycles = pieces[0].cycles;

  const auto n = static_cast<uint32_t>(plan.operations.size());
  std::vector<std::optional<Piece>> slots(n);
  size_t accepted = 0;  // slots in order that the result keeps
  if (extra_machines == 0) {
    uint64_t cumulative = prefix_cycles;
    for (uint32_t k = 1; k <= n; ++k) {
      slots[k - 1] = run_slot(m0, 0, k, start, persistent, left(budget, cumulative), plan);
      cumulative += slots[k - 1]->cycles;
      ++accepted;
      if (!paused_for(*slots[k - 1], k + 1)) break;
    }
  } else {
    std::atomic<uint32_t> next{1};
    std::atomic<bool> broken{false};
    auto work = [&](SimSession& s, size_t index) {
      for (uint32_t k = next.fetch_add(1); k <= n && !broken; k = next.fetch_add(1))
        slots[k - 1] = run_slot(s, index, k, start, persistent, left(budget, prefix_cycles), plan);
      note(s, index, "");
    };
    for (unsigned i = 0; i < extra_machines; ++i) sessions.push_back(nullptr);
    std::vector<std::exception_ptr> errors(extra_machines);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < extra_machines; ++i)
      threads.emplace_back([&, i] {
        try {
          auto made = make_session(false);
          if (!made) {
            broken = true;
            return;
          }
          SimSession& s = **made;
          s.machine->set_isolation_pauses(true);
          note(s, i + 1, "booting");
          s.outcome = s.machine->run(budget);
          // The same image and parameters boot to the same snapshot; anything else is a bug
          // the single machine must not inherit.
          if (!s.outcome.pause || s.outcome.pause->restore ||
              s.outcome.cycles != snapshot_cycles ||
              s.outcome.instructions != snapshot_instructions) {
            broken = true;
            return;
          }
          sessions[i + 1] = std::move(*made);
          work(*sessions[i + 1], i + 1);
        } catch (...) {
          errors[i] = std::current_exception();
          broken = true;
        }
      });
    std::exception_ptr own_error;
    try {
      work(m0, 0);
    } catch (...) {
      own_error = std::current_exception();
      broken = true;
    }
    for (auto& t : threads) t.join();
    if (own_error) std::rethrow_exception(own_error);
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    // Every slot must have run to its end within what is left of the budget in slot order;
    // a fault or the budget inside a slot is what a single machine decides.
    uint64_t cumulative = prefix_cycles;
    bool combinable = !broken;
    for (uint32_t k = 1; k <= n && combinable; ++k) {
      const auto& p = slots[k - 1];
      combinable = p && paused_for(*p, k + 1) && cumulative + p->cycles < budget;
      if (p) cumulative += p->cycles;
    }
    if (!combinable) {
      out.rerun_alone = true;
      return out;
    }
    accepted = n;
  }

  // The persistent counters after the accepted slots, as if they had run in order; every
  // other persistent byte is the KAT phase's (a slot that changed one cannot be combined).
  std::vector<uint8_t> final_persistent = start.persistent;
  uint32_t seq = seq0, failures = failures0;
  std::vector<uint64_t> seq_offsets;  // per accepted slot: the records of the slots before it
  for (size_t k = 0; k < accepted; ++k) {
    Piece& p = *slots[k];
    if (p.persistent.size() != start.persistent.size())
      return util::fail(fmt::format("cannot read the image's persistent range after slot {}",
                                    k + 1));
    std::vector<uint8_t> others = p.persistent;
    set_word(others, seq_at, seq0);
    set_word(others, failures_at, failures0);
    if (others != start.persistent)
      run.errors.push_back(fmt::format("slot {} ({}) changed the harness's persistent state "
                                       "beyond its record and failure counters; slots cannot "
                                       "be combined",
                                       k + 1, plan.operations[k]));
    // This slot's records were numbered from seq0; in slot order they follow the earlier ones.
    seq_offsets.push_back(seq - seq0);
    seq += word_at(p.persistent, seq_at) - seq0;
    failures += word_at(p.persistent, failures_at) - failures0;
    pieces.push_back(std::move(p));
  }
  set_word(final_persistent, seq_at, seq);
  set_word(final_persistent, failures_at, failures);

  if (accepted == n && paused_for(pieces.back(), n + 1)) {
    uint64_t cumulative = 0;
    for (const Piece& p : pieces) cumulative += p.cycles;
    note(m0, 0, "");
    m0.machine->restore_isolation(n + 1);
    (void)m0.machine->write_memory(persistent.first, final_persistent);
    m0.machine->set_cycle_counter(start.cyccnt);
    const Mark from = mark(m0);
    m0.outcome = m0.machine->resume(left(budget, cumulative));
    pieces.push_back(take_piece(m0, 0, from, persistent));
    if (pieces.back().pause)
      run.errors.push_back(fmt::format("the firmware asked for slot {} after the last one the "
                                       "simulator planned ({} operations)",
                                       pieces.back().pause->slot, n));
  } else if (accepted < n && !slots[accepted - 1]->fault && slots[accepted - 1]->exited) {
    run.errors.push_back(fmt::format("the firmware ended in slot {}; the simulator planned {} "
                                     "operations",
                                     accepted, n));
  }

  // The primitive share of each operation comes from the machine that ran its slot, and only
  // from it.
  std::vector<size_t> ran_on(n, 0);
  for (size_t k = 0; k < accepted; ++k) ran_on[k] = pieces[k + 1].session;
  for (size_t i = 0; i < sessions.size(); ++i) {
    if (!sessions[i] || !sessions[i]->share) continue;
    for (auto& [op, figures] : sessions[i]->share->finish()) {
      const auto at = std::find(plan.operations.begin(), plan.operations.end(), op);
      const size_t k = static_cast<size_t>(at - plan.operations.begin());
      if (at == plan.operations.end() || k >= accepted || ran_on[k] != i) {
        if (extra_machines > 0) {
          out.rerun_alone = true;
          return out;
        }
      }
      run.shares[op] = std::move(figures);
    }
  }
  run.machines = 1 + extra_machines;
  // Seq offsets: the prefix and the final piece are numbered as sent; slot k's records follow
  // those of slots 1..k-1.
  auto result = finish();
  if (!result) return result;
  for (size_t k = 0; k < accepted; ++k) result->run.pieces[k + 1].seq_offset = seq_offsets[k];
  return result;
}

}  // namespace

SlotPlan plan_slots(const elf::ElfImage& image, const RunParameters& params) {
  SlotPlan plan;
  const auto* begin = image.find_symbol("__fathom_persist_start");
  const auto* end = image.find_symbol("__fathom_persist_end");
  if (begin == nullptr || end == nullptr || begin->address >= end->address) return plan;
  const auto seq = counter_in(image, "next_seq", begin->address, end->address);
  const auto failures = counter_in(image, "kat_failures", begin->address, end->address);
  auto registry = elf::harness_operations(image);
  if (!seq || !failures || !registry) return plan;
  plan.next_seq_address = *seq;
  plan.kat_failures_address = *failures;
  if (params.operations.empty()) {
    plan.operations = *registry;
  } else {
    for (const auto& name : params.operations)
      if (std::find(registry->begin(), registry->end(), name) != registry->end() &&
          std::find(plan.operations.begin(), plan.operations.end(), name) ==
              plan.operations.end())
        plan.operations.push_back(name);
  }
  if (plan.operations.size() > kMaxOperations) plan.operations.resize(kMaxOperations);
  return plan;
}

util::Result<SlotRun> run_slots(const SlotPlan& plan, const SessionFactory& make_session,
                                uint64_t cycle_budget, util::CoreBudget* cores, bool parallel) {
  unsigned extra = 0;
  if (parallel && cores != nullptr && plan.operations.size() > 1)
    extra = cores->try_take(static_cast<unsigned>(plan.operations.size() - 1));
  util::Result<Attempt> first = [&]() -> util::Result<Attempt> {
    try {
      return attempt(plan, make_session, cycle_budget, extra);
    } catch (...) {
      if (cores) cores->give(extra);
      throw;
    }
  }();
  if (cores) cores->give(extra);
  if (!first) return tl::unexpected(first.error());
  if (!first->rerun_alone) return std::move(first->run);
  auto alone = attempt(plan, make_session, cycle_budget, 0);
  if (!alone) return tl::unexpected(alone.error());
  alone->run.ran_again_alone = true;
  return std::move(alone->run);
}

}  // namespace fathom::target
