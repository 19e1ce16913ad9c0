#pragma once
// The simulator target's settings, in terms the pipeline and the CLI can name without knowing a
// simulator type (target/sim/sim_target.h maps them onto sim::Machine and the observers).
#include "util/core_budget.h"

namespace fathom::target {

struct SimSettings {
  // How the simulator charges instructions: per translation block (measurements), one hook
  // per instruction (the reference: same counts, slower), or counting only (no timing model;
  // `fathom bench`).
  enum class Hooks { kBlock, kPerInstruction, kBlockCountOnly };
  Hooks hooks = Hooks::kBlock;
  // Cross-check every operation's memory figures with the simulator's own measurement
  // (profile::MemoryWatch; OperationResult::sim_peak_stack_bytes, ...). Off for `fathom bench`.
  bool memory_watch = true;
  // Measure OperationResult::primitive_share when the image names primitive groups (a call
  // tracker watches the run: slower on the host, same counts). Off for `fathom bench`.
  bool primitive_share = true;
  // Count the KAT phase of a snapshot-isolated image (the harness's kat_phase, up to the first
  // slot's restore) without the timing model when no caller observer watches: every slot
  // restores the snapshot's timing state, so no operation's figure depends on it (docs/
  // SIMULATOR.md "Isolation"). Off for `fathom bench`, which measures the model.
  bool untimed_kat_phase = true;
  // Whether the caller's own observers (SimTarget's `observers`) watch the KAT phase too. Off
  // for a profile of operations only (`fathom profile` without --whole-run, `diagnose`,
  // `report`, `ct`): they then see the operations' runs alone, and the KAT phase runs untimed.
  bool caller_observers_watch_kat_phase = true;
  // Spare cores of the command (`-j`, util/core_budget.h) on which one image's operation slots
  // may run at once (target/sim/slot_run.h); null = one machine. Never changes a result.
  util::CoreBudget* cores = nullptr;
};

}  // namespace fathom::target
