#pragma once
// The timing model driven by QEMU's translation blocks instead of Unicorn's hooks: the core of
// fathom's QEMU engine (its plugin, src/target/qemu_engine/engine_plugin.cpp, feeds it; the
// plugin is built against QEMU 10's plugin API, docs/QEMU-ENGINE.md). Nothing here includes a
// QEMU header, so the charging rules are unit-tested on their own.
//
// What the plugin tells it, and what it charges (the same rules as sim::Machine in block mode,
// which stays the reference: `fathom run --cross-check sim`):
// - `translate`: a translation block's instructions (address and bytes). The returned block says
//   per instruction which callbacks the plugin must register: operand values (divides, long
//   multiplies), the flags (IT instructions, and conditional instructions that follow a
//   flag-setting one inside an IT block), memory accesses (see `memory`).
//   Flags are read again after a flag-setting instruction inside an IT block, so such code is
//   charged exactly; sim::Machine's block mode decides every condition from the flags at the
//   IT there and counts an inexact event (its per-instruction mode is exact), so the two can
//   differ on such code, and the simulator says so.
// - `enter`: a block starts executing. The previous block is charged now that its last
//   instruction's successor is known. `previous_completed` says whether that block's last
//   instruction started (an inline store on it). If it did not, QEMU left the block early: an
//   MMIO access that was not the block's last instruction (QEMU 10 aborts the block there, runs
//   the access alone in a one-off block and goes on with a new block after it) or an exception.
//   The instructions before this block's start are charged then; a start outside the block is
//   counted as an unplaced event (the figures are not exact: the host reports it).
// - `memory`: an access to the console's DATA register or to the Private Peripheral Bus, seen
//   by a memory callback. The plugin registers one only on instructions that can make such an
//   access where QEMU lets it: the only instruction of a block (the one-off blocks above) and a
//   block's last instruction, unless SP-based. The instructions before the access are charged,
//   so a CYCCNT read returns the model's count at the reading instruction, as on the simulator
//   (sim::SystemControl); QEMU's guest reads 0, so the value goes to the host as a probe.
#include <array>
#include <functional>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "sim/execution_observer.h"
#include "sim/instruction.h"
#include "sim/instruction_decoder.h"
#include "sim/it_block.h"
#include "sim/system_control.h"
#include "sim/timing/core_timing_model.h"

namespace fathom::sim {

class TcgTiming {
 public:
  struct TranslatedInstruction {
    uint32_t address = 0;
    std::span<const uint8_t> bytes;  // the instruction's bytes (2 or 4)
  };

  struct Block {
    // Per instruction, what the plugin registers for it.
    enum : uint8_t {
      kOperands = 1,  // a callback reading the two operand registers before it runs
      kFlags = 2,     // a callback reading APSR before it runs (IT; or inside an IT block)
      kMemory = 4,    // a memory callback on its accesses
    };
    uint32_t start = 0;
    uint32_t end = 0;  // address after the last instruction
    uint32_t id = 0;   // dense from 0 (ExecutionObserver::InstructionRun::block)
    bool writes_sp = false;  // an instruction may write SP (then SP is read after the block)
    std::vector<Instruction> instructions;
    std::vector<const Instruction*> pointers;  // into `instructions`, for observers
    std::vector<uint32_t> addresses;
    std::vector<uint8_t> kinds;
    std::vector<uint8_t> bytes;  // the instructions' bytes, in order
    // Charged whole from a memo when entered from an equal timing state (CoreTimingModel::
    // state_key, and whether its last instruction branched), with the same IT outcomes:
    // nothing in it has a cost that reads operand values.
    bool memoizable = false;
    bool has_it = false;  // an instruction reads the flags (kFlags)
    struct Memo {
      uint64_t key = 0;
      uint64_t pattern = 0;  // IT outcomes, one bit per conditional instruction, in order
      uint64_t cycles = 0;
      timing::CoreTimingModel::State exit;
      ItBlock it_exit;       // an IT block that goes on past the block's end
      std::vector<uint32_t> instruction_cycles;  // kept only with an observer
    };
    static constexpr size_t kMemoEntries = 4;
    std::array<Memo, kMemoEntries> memo{};
    uint8_t memo_count = 0;
    uint8_t memo_next = 0;
  };

  struct Probe {
    uint64_t instructions = 0;   // retired before the reading instruction
    uint64_t console_bytes = 0;  // stored to the console before it
    uint32_t cyccnt = 0;         // what the simulator's CYCCNT returns there
  };

  struct Stats {
    uint64_t blocks = 0;          // enter() calls
    uint64_t translations = 0;    // translate() calls
    uint64_t memoized = 0;        // blocks charged from their memo
    uint64_t charged = 0;         // instructions charged one by one (not from a memo)
    uint64_t memo_misses = 0;     // memoizable blocks charged whole without a matching entry
    uint64_t early_exits = 0;     // blocks left before their last instruction, placed exactly
    uint64_t unplaced = 0;        // events that could not be placed: the figures are inexact
  };

  // `console_address`: the console's DATA register. `vtor_reset`: the boot address (flash).
  TcgTiming(std::unique_ptr<timing::CoreTimingModel> model, uint32_t console_address,
            uint32_t vtor_reset);

  // Reports every charged instruction to `observer` as sim::Machine's block mode does: runs of
  // executed instructions, IT-skipped ones one at a time, each with the SP at its block's start
  // as last known (`read_sp` is called when a block that may write SP has run, and once at the
  // first block; it must read the CPU's SP then). Set before the first block.
  void set_observer(ExecutionObserver* observer, std::function<uint32_t()> read_sp);

  // The block made of `instructions` (in address order, contiguous). Lives as long as this.
  Block* translate(std::span<const TranslatedInstruction> instructions);
  void enter(Block* block, bool previous_completed);
  // Instruction `index` of the running block is about to execute with these operand register
  // values (kOperands) or this APSR (kFlags).
  void operands(const Block* block, size_t index, uint32_t first, uint32_t second);
  void flags(const Block* block, size_t index, uint32_t apsr);
  // Instruction `index` of `block` (the running block, or a one-off block QEMU made for an
  // MMIO access) accessed `address`.
  void memory(const Block* block, size_t index, uint32_t address, bool store, uint64_t value);
  // The guest stopped (semihosting exit): charges the last block.
  void finish();

  uint64_t instructions() const { return instructions_; }
  uint64_t cycles() const { return cycles_; }
  uint64_t console_bytes() const { return console_bytes_; }
  const std::vector<Probe>& probes() const { return probes_; }
  const Stats& stats() const { return stats_; }
  const timing::CoreTimingModel& model() const { return *model_; }

 private:
  // Charges instructions [charged_, end) of the pending block; the last one continues at
  // `next_after` when `end` is the block's size.
  void charge_to(size_t end, uint32_t next_after);
  void charge_whole(Block& block, uint32_t next);
  // The IT outcomes of the pending block's instructions (with a marker bit above them), or
  // nullopt when a flag value is missing or there are too many to key a memo entry.
  std::optional<uint64_t> it_pattern(const Block& block) const;
  void charge_one(size_t index, uint32_t next);
  // Index in the pending block (at or after charged_) of the instruction at `address`.
  std::optional<size_t> pending_index(uint32_t address) const;
  // With an observer: instruction `index` of the pending block ran (or was IT-skipped),
  // costing `cycles`, and continued at `next`.
  void observe(size_t index, uint32_t next, uint32_t cycles, bool executed);
  // Reports the current run, instructions [run_first_, end) of the pending block.
  void flush_run(size_t end, uint32_t next);
  void update_block_sp(const Block& block);
  const std::array<uint32_t, 2>* value_for(size_t index) const;

  ExecutionObserver* observer_ = nullptr;
  std::function<uint32_t()> read_sp_;
  uint32_t block_sp_ = 0;
  bool sp_known_ = false;
  std::vector<uint32_t> run_cycles_;  // the current run's, for report_run
  size_t run_first_ = 0;              // its first instruction
  uint32_t next_block_id_ = 0;
  bool recording_ = false;                 // a memo entry is being made: keep the costs
  std::vector<uint32_t> recorded_cycles_;
  bool finishing_ = false;

  std::unique_ptr<timing::CoreTimingModel> model_;
  bool memoize_ = false;
  uint32_t console_address_;
  SystemControl scs_;
  InstructionDecoder decoder_;
  std::unordered_map<uint32_t, std::vector<std::unique_ptr<Block>>> blocks_;
  // Where a translated block ended inside an IT block (QEMU ends blocks at a page boundary):
  // the address after it -> how many of the IT's instructions are still to come. The block
  // translated there reads the flags at each of them.
  std::unordered_map<uint32_t, int> it_continues_;

  Block* pending_ = nullptr;
  size_t charged_ = 0;
  // Values read for the pending block's instructions: (index, values).
  std::vector<std::pair<size_t, std::array<uint32_t, 2>>> values_;
  ItBlock it_;
  bool flags_changed_in_it_ = false;  // the last instruction charged set flags inside an IT block

  uint64_t instructions_ = 0;
  uint64_t cycles_ = 0;
  uint64_t console_bytes_ = 0;
  std::vector<Probe> probes_;
  Stats stats_;
};

}  // namespace fathom::sim
