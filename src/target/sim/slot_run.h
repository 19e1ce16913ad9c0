#pragma once
// Runs a fathom image on the simulator slot by slot (docs/SIMULATOR.md "Isolation"). After
// boot the firmware takes its isolation snapshot and runs the KAT phase (slot 0); then every
// operation's slot starts from the very same state: the snapshot, the persistent range as the
// KAT phase left it, and CYCCNT as it read then. A slot's counts therefore depend on nothing
// but the image, its parameters and the slot, so the slots are independent: they run one after
// another on one machine, or at once on several machines (spare cores of `-j`), with the same
// results. Each slot numbers its records from the same start; the host places them in the
// image's sequence (protocol::StreamPiece) and runs the final piece (the END record) with the
// persistent counters that the slots, run in order, leave.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/run_result.h"
#include "profile/memory_watch.h"
#include "profile/primitive_share.h"
#include "protocol/stream_decoder.h"
#include "sim/machine.h"
#include "sim/observer_fanout.h"
#include "target/target.h"
#include "util/core_budget.h"
#include "util/error.h"
#include "util/run_meter.h"

namespace fathom::target {

// One simulated machine with the observers of a run.
struct SimSession {
  std::unique_ptr<sim::Machine> machine;
  sim::ObserverFanout observers;
  // The caller's own observers alone (a profiler's call tracker), a subset of `observers`: what
  // watches the KAT phase (run_slots). The run's memory watch and primitive share measure
  // operations' warm-up, timed and memory runs, none of which runs there, and restore what they
  // track at the first slot's restore, so they sit the KAT phase out.
  sim::ObserverFanout callers;
  std::unique_ptr<profile::MemoryWatch> watch;         // null: no memory watch
  std::unique_ptr<profile::PrimitiveShareRecorder> share;  // null: no primitive share
  sim::RunOutcome outcome;  // as of the machine's last stop
  // Where the run's progress is shown (the machine's live counter is the factory's to set);
  // null: nowhere. run_slots says there which slot each machine runs.
  util::RunMeter* meter = nullptr;
};

// Makes a session: a loaded machine with the run parameters written, its observers attached.
// `first` is the session that also carries the caller's own observers (there is one).
using SessionFactory = std::function<util::Result<std::unique_ptr<SimSession>>(bool first)>;

// The slots of one image run: slot k (1-based) times operations[k - 1], and where the harness
// keeps the two persistent counters a slot advances (firmware/harness: the record sequence
// `next_seq` and `kat_failures`). Both addresses 0: the image does not keep them in a
// persistent range, and runs whole, its isolation driven by the firmware alone.
struct SlotPlan {
  std::vector<std::string> operations;
  uint32_t next_seq_address = 0;
  uint32_t kat_failures_address = 0;
};

// The plan for running `image` with `params`. The operations are those the harness selects
// from the parameters (fathom_harness.c selection_order: the named ones found in the registry,
// in the given order, each once; all, in registry order, when none is named).
SlotPlan plan_slots(const elf::ElfImage& image, const RunParameters& params);

// What the slots produced, put together in slot order as if one machine had run them.
struct SlotRun {
  std::string console;
  std::vector<protocol::StreamPiece> pieces;
  std::vector<protocol::CycleProbe> probes;  // instructions counted along the pieces
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  // Block mode: events whose counts it could not place exactly (sim::RunOutcome::
  // inexact_events), over the pieces.
  uint64_t inexact_events = 0;
  // Of `instructions` (and one cycle each of `cycles`): counted without the timing model, the
  // KAT phase's when the sessions' machines have it untimed (sim::Machine::set_untimed_from).
  uint64_t untimed_instructions = 0;
  std::optional<model::Fault> fault;
  bool exited = false;
  bool snapshot = false;  // the firmware took its isolation snapshot
  std::vector<profile::OperationMemory> executions;  // the memory watch's, in piece order
  std::map<std::string, profile::PrimitiveFigures> shares;
  std::vector<std::string> errors;  // problems putting the slots together
  std::string timing_model;         // the machines' (sim::Machine::timing_model_name)
  double host_seconds = 0;          // wall time
  unsigned machines = 1;            // machines that ran slots at once
  // The slots of several machines could not be combined, so one machine ran the image again
  // (run_slots); the result is that machine's.
  bool ran_again_alone = false;
};

// Runs the image with `plan`. Borrows spare cores from `cores` (null: none) for extra machines
// when `parallel` (no caller observer, whose single instance cannot watch several machines);
// whatever ran on how many machines, the result is the one a single machine gives. A run whose
// slots cannot be combined exactly (a fault or the budget inside a slot, observers that saw an
// operation outside its slot) is run again on one machine, which defines the result.
util::Result<SlotRun> run_slots(const SlotPlan& plan, const SessionFactory& make_session,
                                uint64_t cycle_budget, util::CoreBudget* cores, bool parallel);

}  // namespace fathom::target
