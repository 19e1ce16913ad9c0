#pragma once
// The simulated microcontroller: Unicorn's Cortex-M CPU with the board's memory map, the
// system control space, the console register, a per-core timing model and a cycle budget.
//
// Console (docs/SIMULATOR.md): the board's console_address is a 4 KiB register block. For
// `console = "sim"`: offset 0 = TX (a write emits its low byte), offset 4 = EXIT (a write ends
// the run with that code). For `console = "cmsdk-uart"` (the QEMU MPS2 boards): a CMSDK APB
// UART's registers (sim/cmsdk_uart.h), no EXIT register (those boards exit by semihosting).
#include <unicorn/unicorn.h>

#include <atomic>
#include <cstdint>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "model/run_result.h"
#include "sim/execution_observer.h"
#include "sim/cmsdk_uart.h"
#include "sim/instruction.h"
#include "sim/instruction_decoder.h"
#include "sim/it_block.h"
#include "sim/it_result.h"
#include "sim/semihosting.h"
#include "sim/system_control.h"
#include "sim/timing/core_timing_model.h"
#include "util/error.h"

namespace fathom::sim {

// One read of DWT_CYCCNT served to the firmware, with the exact counts at that instruction.
struct CycleCounterRead {
  uint32_t value = 0;         // what the firmware read
  uint64_t cycles = 0;        // model cycles since reset
  uint64_t instructions = 0;  // instructions executed before the reading instruction
};

// Where a run with isolation pauses (Machine::set_isolation_pauses) stopped.
struct IsolationPause {
  // false: right after the snapshot was taken (the firmware would go on with slot 0); true: at
  // a restore trap, with nothing restored yet.
  bool restore = false;
  uint32_t slot = 0;  // restore: the slot the firmware asked for (its r1)
};

struct RunOutcome {
  bool exited = false;  // the firmware wrote the EXIT register
  int exit_code = -1;
  std::optional<model::Fault> fault;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  std::string console;  // every byte written to TX
  std::vector<CycleCounterRead> cycle_counter_reads;
  // kBlock: events whose position inside a translation block had to be guessed — a divide or
  // long multiply whose operands were read at its block's start (no operand hook: an image
  // without mapping symbols) after an earlier instruction of the block wrote them, or a device
  // access no instruction of the block could have made. Counts near them may be off by a few
  // cycles; 0 for fathom's images (tests check it).
  uint64_t inexact_events = 0;
  // kBlock: block executions charged from the block's memoized cost (the rest were charged
  // instruction by instruction). A diagnostic; the counts are the same either way.
  uint64_t memoized_blocks = 0;
  // kBlock: blocks translated a second time to give an IT its operand hook before they first
  // ran (Machine::hook_lazy_its). A diagnostic.
  uint64_t retranslated_blocks = 0;
  // Instructions counted but not timed (set_untimed_from): each advanced `cycles` and CYCCNT by
  // one, so `cycles - untimed_instructions` is what the timing model charged.
  uint64_t untimed_instructions = 0;
  // Isolation (docs/SIMULATOR.md): whether the firmware took a snapshot, and how many times it
  // had the machine restore it.
  bool isolation_snapshot = false;
  uint64_t isolation_restores = 0;
  // Set when the run paused at an isolation trap (then neither exited nor faulted).
  std::optional<IsolationPause> pause;
  double host_seconds = 0;
};

// How the simulator observes execution.
enum class HookMode {
  // A hook per translation block; the block's instructions are charged to the timing model in
  // order once the next block shows where execution went, plus a hook on each divide and long
  // multiply (found from the ELF's mapping symbols at load) to read its operands. Gives the
  // same instruction and cycle counts as kPerInstruction, CYCCNT included (a unit test proves
  // it on real images). The mode used for measurements.
  kBlock,
  // A hook per instruction: the straightforward reference for kBlock.
  kPerInstruction,
  // A hook per translation block that only counts instructions (one "cycle" each). CYCCNT is
  // exact only at block boundaries. For `fathom bench`, to show what the timing model costs.
  kBlockCountOnly,
};
class Machine {
 public:
  // A machine for `board` with the timing model of its core.
  static util::Result<std::unique_ptr<Machine>> create(const model::Board& board,
                                                       HookMode mode = HookMode::kBlock);
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  // Places every loadable segment of `image` at its load address; each must lie inside one
  // memory region of the board. Keeps the symbols for fault reports.
  util::Result<void> load(const elf::ElfImage& image);

  // Overwrites target memory (e.g. harness parameters in flash) before `run`.
  util::Result<void> write_memory(uint32_t address, const std::vector<uint8_t>& bytes);

  // Runs from reset (initial SP and reset vector from the vector table at the flash origin)
  // until the firmware exits, faults, or `cycle_budget` model cycles have elapsed. Every run
  // starts from the same CPU registers, system control space and timing-model state, so
  // running one machine again gives the same counts; memory keeps what earlier runs wrote.
  RunOutcome run(uint64_t cycle_budget);

  std::string timing_model_name() const { return timing_->name(); }

  // Isolation under the caller's control (docs/SIMULATOR.md "Isolation"). With pauses on,
  // `run` and `resume` return at every isolation trap instead of serving it: right after the
  // snapshot is taken, and at each restore request before anything is restored
  // (RunOutcome::pause). The caller then restores a slot (restore_isolation), may rewrite the
  // persistent range and CYCCNT, and resumes. Off by default: the machine serves the traps.
  void set_isolation_pauses(bool on) { isolation_pauses_ = on; }
  // What a restore trap does: back to the snapshot (CPU, RAM but the persistent range, system
  // control, timing model), with `slot` as the snapshot trap's result; CYCCNT keeps counting.
  // False if no snapshot was taken.
  bool restore_isolation(uint32_t slot);
  // Counting without the timing model from the function at `entry` on until the next
  // isolation restore, when execution reaches it after a snapshot while no observer watches
  // (kBlock and kPerInstruction; RunOutcome::untimed_instructions). For a phase whose cycles
  // nothing reports (the KAT phase: every slot restores the snapshot's timing state): each
  // instruction then counts one cycle, so CYCCNT keeps advancing. Everything before `entry`'s
  // first instruction is timed in both modes alike.
  void set_untimed_from(uint32_t entry) { untimed_from_ = entry; }
  // Continues a paused run for at most `cycle_budget` more model cycles (a budget fault then
  // names the budget `run` was given). The outcome accumulates over the run and its resumes;
  // without a pause it is returned unchanged.
  RunOutcome resume(uint64_t cycle_budget);
  // DWT_CYCCNT now, and setting it (it keeps counting or not, as the firmware set it up).
  uint32_t cycle_counter() const;
  void set_cycle_counter(uint32_t value);
  // The image's persistent range [__fathom_persist_start, __fathom_persist_end), which a
  // restore leaves alone; empty if the image has none.
  std::pair<uint32_t, uint32_t> persistent_range() const { return {persist_start_, persist_end_}; }
  // `size` bytes of simulated memory at `address`.
  util::Result<std::vector<uint8_t>> read_memory(uint32_t address, size_t size) const;

  // Reports every charged instruction to `observer` (nullptr: none) during later runs; kBlock
  // and kPerInstruction only. The observer must outlive the runs.
  void set_observer(ExecutionObserver* observer) { observer_ = observer; }
  // Where the machine publishes its instruction count as it runs (once per translation block,
  // or per instruction in the per-instruction mode; relaxed), for a progress display on
  // another thread (util::RunMeter). Null: nowhere. Never changes a count.
  void set_live_counter(std::atomic<uint64_t>* counter) { live_ = counter; }

  // Core register `index` (0..12 = R0..R12, 13 = SP, 14 = LR, 15 = PC with the Thumb bit
  // clear) as the simulated CPU holds it at the time of the call; 0 for an index above 15.
  // For an observer, during on_instruction: in kPerInstruction, the state right after the
  // reported instruction; in kBlock, the state at the start of the next translation block,
  // i.e. after the last instruction of the reported one's block — exact for an instruction
  // that ends its block (any branch, call or return) — or, when a device access inside a
  // block charges its earlier instructions, the state at that access. PC is exact only in
  // kPerInstruction: in kBlock Unicorn does not write it when one block chains straight into
  // the next, so it may still hold an earlier block's address.
  uint32_t read_core_register(unsigned index) const;
  // The 32-bit word of simulated memory at `address` now; nullopt if it is not mapped.
  std::optional<uint32_t> read_memory_word(uint32_t address) const;

 private:
  Machine(const model::Board& board, uc_engine* uc,
          std::unique_ptr<timing::CoreTimingModel> timing, HookMode mode);

  static void on_code(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void on_block(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void on_block_count(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void on_operand_code(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static bool on_unmapped(uc_engine* uc, uc_mem_type type, uint64_t address, int size,
                          int64_t value, void* self);
  static void on_interrupt(uc_engine* uc, uint32_t intno, void* self);
  static bool on_invalid_instruction(uc_engine* uc, void* self);
  static uint64_t on_ppb_read(uc_engine* uc, uint64_t offset, unsigned size, void* self);
  static void on_ppb_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value,
                           void* self);
  static uint64_t on_console_read(uc_engine* uc, uint64_t offset, unsigned size, void* self);
  static void on_console_write(uc_engine* uc, uint64_t offset, unsigned size, uint64_t value,
                               void* self);

  const Instruction& instruction_at(uint32_t address);

  // A translation block's instructions, decoded once per start address.
  struct Block {
    // What every execution of the block reads comes first, in one cache line.
    uint32_t start = 0;
    uint32_t size_bytes = 0;
    uint32_t end = 0;  // address after the last instruction (where a not-taken exit goes)
    uint32_t id = 0;  // dense, per machine (ExecutionObserver::InstructionRun::block)
    int32_t first_fpu = -1;  // index of the first floating-point instruction, -1 if none
    bool special = false;    // see `kinds`
    bool unhooked = false;   // see `kinds`
    bool memoizable = false;     // see `memo`
    bool it_memoizable = false;  // special only through ITs: memoized per executed pattern
    bool hooks_checked = false;  // its ITs have their operand hooks (hook_lazy_its)
    bool writes_sp = false;  // an instruction may write SP (then update_block_sp reads it)
    uint8_t memo_count = 0;  // valid entries of `memo`
    uint8_t memo_next = 0;   // entry to replace when all are valid
    std::vector<const Instruction*> instructions;
    std::vector<uint32_t> addresses;
    // Per instruction: kOperands (the model reads its operands), kIt, kUnhookedOperands (the
    // model reads them but no hook does: read at block start), kItFlags (inside an IT block
    // after a flag-setting instruction of it: a hook reads the flags its condition is decided
    // from). `special` = any of them.
    // kItResult: an IT whose conditions are read from a register when the block is charged
    // (sim/it_result.h; both of its moves are in this block). kItCompare: an IT that would
    // need its hook, whose flags are those of a CMP before it in this block, computed from
    // the CMP's operands as the block entered (`entry_registers`).
    enum : uint8_t {
      kOperands = 1, kIt = 2, kUnhookedOperands = 4, kItFlags = 8, kItResult = 16, kItCompare = 32
    };
    std::vector<uint8_t> kinds;
    std::vector<std::pair<uint32_t, const ItResult*>> it_results;  // kItResult ITs by address
    std::vector<std::pair<uint32_t, Comparison>> it_compares;      // kItCompare ITs by address
    std::vector<uint8_t> entry_registers;  // registers read as the block enters (kItCompare)
    // Instructions that need an operand hook and may still lack it (lazy_it_hooks_):
    // installed before the block first runs (hook_lazy_its).
    std::vector<uint32_t> lazy_hooks;
    // Memoized costs: charged whole from a timing state with key `key` (CoreTimingModel::
    // state_key at `start`, shifted left once, bit 0 = the last instruction branched), the block
    // took `cycles` and left `exit`. For a block that is not special and has no instruction
    // whose cost reads operand values (`memoizable`), never with an IT block carried in; and
    // for one that is special only through ITs (`it_memoizable`), per pattern of executed
    // instructions. machine_test and machine_it_result_test prove the cached costs equal the
    // charged ones.
    struct Memo {
      uint64_t key = 0;
      uint64_t cycles = 0;
      timing::CoreTimingModel::State exit;
      // Each instruction's cycles, kept only when an observer watches (it is told every
      // instruction's cost); empty otherwise.
      std::vector<uint32_t> instruction_cycles;
      // For a special block (`it_memoizable`): which instructions executed (1) or failed their
      // IT condition (0); the entry holds for that pattern only. Empty otherwise.
      std::vector<uint8_t> executes;
    };
    static constexpr size_t kMemoEntries = 4;
    std::array<Memo, kMemoEntries> memo{};
  };
  Block& block_at(uint32_t start, uint32_t size_bytes);
  Block& build_block(uint32_t start, uint32_t size_bytes);
  // For a block being built: which of its instructions in lazy_it_hooks_ need their hook
  // (Block::lazy_hooks) and which ITs the block can decide from a CMP (Block::kItCompare).
  // `unhooked_moves`: its compared moves (result_its_) that lack their CMP before them and their
  // hook, which wait like the ITs in lazy_it_hooks_.
  void plan_lazy_hooks(Block& b, std::span<const uint32_t> unhooked_moves);
  // kBlock: charges the pending block's instructions up to (excluding) `index`; the last one
  // charged continues at `next_address`.
  void charge_pending(size_t index, uint32_t next_address);
  // kBlock: charges all of `b` (memoizable, nothing charged yet, no IT block carried in) from
  // its memo, or charges it and fills the memo. With an observer, every instruction is still
  // reported, with its cost from the memo.
  void charge_memoized(Block& b, uint32_t next_address);
  // Tells the observer that instructions [first, end) of `b` ran, with these costs (their sum
  // `total`), the last continuing at `next`.
  void report_run(const Block& b, size_t first, size_t end, const uint32_t* cycles,
                  uint64_t total, uint32_t next);
  std::vector<uint32_t> run_cycles_;  // scratch for report_run
  // Scratch of charge_pending's special path: per instruction from the first charged, whether
  // it executes; the operand values of those whose cost reads them, by block index.
  std::vector<uint8_t> executes_;
  std::vector<std::pair<size_t, std::array<uint32_t, 2>>> operand_values_;
  // Per instruction charged by charge_pending's special path, its cost (what its memo keeps).
  std::vector<uint32_t> instruction_cycles_;
  // Tells the observer that instructions [first, end) of a special block ran, with these costs
  // (from cycles[0]) and `executes_` their pattern: runs of executed instructions, and each
  // IT-skipped one alone; the block's last one continues at `next_address`.
  void report_runs(const Block& b, size_t first, size_t end, const uint32_t* cycles,
                   uint32_t next_address);
  // With an observer, after `b` ran to its end: block_sp_ becomes the SP now (only read when
  // `b` may have written it: a register read costs as much as charging a few instructions).
  void update_block_sp(const Block& b);
  uint32_t next_block_id_ = 0;
  // kBlock: makes every instruction before the one at `pc` charged (a mid-block event such as
  // a CYCCNT read); with `including`, the one at `pc` too (the run stops there).
  void charge_up_to(uint32_t pc, bool including);
  uint32_t read_pc() const;
  // Charges one instruction to the timing model; `executed` false for one that failed its IT
  // condition.
  // Returns its cycles; tells the observer unless `notify` is false (the caller reports it in
  // a run).
  uint32_t charge(const Instruction& insn, uint32_t pc, uint32_t next, bool executed,
                  bool notify = true);
  // kBlock: the index in the pending block of the instruction whose memory operand covers
  // `address` with the current register values, searching from `device_cursor_`.
  std::optional<size_t> locate_access(uint32_t address) const;
  // Current values of the registers that decide a divide's or long multiply's cost.
  std::array<uint32_t, 2> read_operands(const Instruction& insn) const;
  // The instruction being executed, inside a memory or exception hook.
  uint32_t executing_pc() const;
  // kBlock: charges the pending block up to the instruction making a device access at
  // `address` (from the system-control and console callbacks), so CYCCNT is exact there.
  void note_device_access(uint32_t address);
  // The instruction accessing `address`, inside a memory fault hook.
  uint32_t accessing_pc(uint32_t address);
  // The instruction making the current access, inside a system-control or console callback.
  uint32_t mmio_pc() const;
  void install_operand_hooks(const elf::ElfImage& image);
  bool it_needs_hook(uint32_t address, uint32_t code_end);
  // Whether straight-line code from `address` reaches an instruction that transfers control
  // (a branch, a table branch, a write of PC) before one that `stops` (checked first, that
  // instruction included), `code_end`, or 256 instructions.
  bool reaches_control_flow(uint32_t address, uint32_t code_end,
                            const std::function<bool(const Instruction&)>& stops);
  // The IT at `address` as an ItResult (it_result, or compared_move_result from the code
  // before it, from `code_begin`) when no instruction after its moves, up to where
  // straight-line code ends (before `code_end`), writes its registers or is a system one.
  std::optional<ItResult> readable_it_result(uint32_t address, uint32_t code_begin,
                                             uint32_t code_end);
  // The flags the IT `r` describes executed with, from its register now (after its moves).
  uint32_t flags_from_result(const ItResult& r);
  void stop_with_fault(std::string kind, uint32_t pc, std::string detail);
  // Stops with a "nocp-usagefault" if the FP instruction at `pc` may not run: CPACR does not
  // grant CP10/CP11 access (SystemControl::fpu_access_enabled). Returns whether it stopped.
  bool fpu_denied(uint32_t pc);
  // At a block's start: the cycle budget, and a floating-point instruction CPACR denies.
  void check_block_limits(const Block& b, uint32_t start);
  // Exception entry for SVC (Unicorn raised EXCP_SWI): charges the SVC, stacks the basic frame
  // on the main stack and continues at the SVCall vector in handler mode (docs/TIMING.md
  // "Exceptions"). Stops with a fault for what is not modelled (an SVC in a handler, the
  // process stack, an active FP context).
  void enter_svc();
  // Exception return (Unicorn raised EXCP_EXCEPTION_EXIT: a handler branched to an EXC_RETURN
  // value): charges the returning instruction, unstacks the frame and resumes thread mode.
  void return_from_exception();
  // Serves a BKPT 0xF5 isolation trap at `pc` (docs/SIMULATOR.md "Isolation"): r0 = 0 takes
  // the snapshot, r0 = 1 restores it with r1 as the snapshot trap's result. False if the BKPT
  // is not that trap.
  bool serve_isolation(uint32_t pc);
  // Stops the run at an isolation trap (isolation_pauses_).
  void pause_at(IsolationPause pause);
  bool isolation_pauses_ = false;
  std::optional<uint32_t> untimed_from_;  // set_untimed_from
  bool untimed_ = false;                  // counting without the model until the next restore
  // Starts the untimed phase when `pc` is its entry and nothing needs the model's costs.
  void maybe_start_untimed(uint32_t pc) {
    if (untimed_from_ && pc == *untimed_from_ && isolation_ && !observer_) untimed_ = true;
  }
  // `count` instructions counted without the model: one cycle each.
  void count_untimed(uint64_t count) {
    outcome_.cycles += count;
    outcome_.instructions += count;
    outcome_.untimed_instructions += count;
  }
  // Runs from `pc` until the run stops (exit, fault, budget, pause) and settles the counts.
  RunOutcome emulate(uint32_t pc);
  uint64_t reported_budget_ = 0;  // the budget `run` was given, for a budget fault's message
  // Serves a BKPT 0xAB semihosting call at `pc`; false if the BKPT is not a semihosting trap.
  bool serve_semihosting(uint32_t pc);
  // True if [`address`, `address` + `length`) lies in one board memory region (RAM only when
  // `ram_only`): the semihosting callbacks must not reach MMIO or let the guest write flash.
  bool in_board_memory(uint32_t address, size_t length, bool ram_only) const;

  model::Board board_;
  uc_engine* uc_;
  std::unique_ptr<timing::CoreTimingModel> timing_;
  InstructionDecoder decoder_;
  SystemControl scs_;
  uint32_t cpuid_ = 0;                    // SCB->CPUID, for resetting `scs_`
  uc_context* reset_context_ = nullptr;   // CPU registers as created, restored by `run`
  const elf::ElfImage* image_ = nullptr;
  std::optional<Semihosting> semihosting_;  // set by `load`
  CmsdkUart uart_;  // the console registers of a `console = "cmsdk-uart"` board

  // Decoded instructions: per memory region a table indexed by (address - origin) / 2 that
  // points into `instructions_`, which stores them densely in decode order (a deque, so the
  // pointers stay valid as it grows). Dense storage keeps the hot loop in cache.
  struct CodeRegion {
    uint32_t origin = 0;
    uint32_t length = 0;
    std::vector<const Instruction*> decoded;  // nullptr = not decoded yet
  };
  std::deque<Instruction> instructions_;
  std::vector<CodeRegion> code_regions_;
  CodeRegion* last_region_ = nullptr;  // where the previous instruction was found

  HookMode mode_;
  std::unordered_map<uint32_t, Block> blocks_;  // by start address
  static constexpr size_t kBlockCacheSize = 8192;
  std::array<Block*, kBlockCacheSize> block_cache_{};
  bool memoize_ = false;  // the timing model has compact state: blocks may be memoized
  std::unordered_set<uint32_t> operand_hooks_;  // addresses with an operand hook
  // ITs that need an operand hook (it_needs_hook) and have none yet: each gets its hook when a
  // block containing it first runs.
  std::set<uint32_t> lazy_it_hooks_;
  // ITs that need to know their flags but not through a hook: their outcome is read from a
  // register (readable_it_result), by address.
  std::unordered_map<uint32_t, ItResult> result_its_;
  void add_operand_hook(uint32_t address);
  // kBlock, from the block hook of `b` before any of its instructions ran: if one of its
  // lazy_hooks still lacks its hook, hooks every such instruction, drops the block's
  // translation and makes Unicorn re-enter it (true; the caller returns at once).
  bool hook_lazy_its(const Block& b);
  // kBlock: the values of the pending block's entry_registers as it entered, by register.
  std::array<uint32_t, 13> entry_values_{};
  // kBlock: the block executing now and how many of its instructions are charged already.
  Block* pending_ = nullptr;
  size_t pending_charged_ = 0;
  // kBlock: operand values (for an IT: the APSR flags) read by the operand hooks, in execution order, not yet charged.
  // Each address runs at most once per block execution, so address -> values is unambiguous.
  std::vector<std::pair<uint32_t, std::array<uint32_t, 2>>> pending_operands_;
  // kBlock: instructions inside an IT block after a flag-setting one of it (Block::kItFlags),
  // whose hook reads APSR as they execute; and the flags so read, not yet charged.
  std::unordered_set<uint32_t> flag_hooks_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_flags_;

  // Execution state during `run`.
  RunOutcome outcome_;
  std::atomic<uint64_t>* live_ = nullptr;  // set_live_counter
  void publish_count() {
    if (live_) live_->store(outcome_.instructions, std::memory_order_relaxed);
  }
  uint64_t budget_ = 0;
  uint32_t current_pc_ = 0;
  const Instruction* current_ = nullptr;
  bool stopping_ = false;
  uint32_t device_access_pc_ = 0;  // kBlock: the instruction of the current MMIO access
  size_t device_cursor_ = 0;
  ItBlock it_block_;
  ExecutionObserver* observer_ = nullptr;
  uint32_t block_sp_ = 0;  // SP after the last fully charged block, for the observer  // kBlock: the IT block being charged, across block boundaries        // kBlock: first instruction of the block that may access next
  std::optional<uint32_t> stop_pc_;  // instruction that ended the run (EXIT write, fault)
  // The isolation snapshot: the whole machine right after the snapshot trap (the CPU with PC
  // past it and r0 = 0, RAM, the system control space, the timing model). RAM in
  // [persist_start, persist_end) (the image's __fathom_persist_start/_end) is not restored.
  struct IsolationSnapshot {
    uc_context* context = nullptr;
    std::vector<std::pair<uint32_t, std::vector<uint8_t>>> ram;  // region origin -> bytes
    std::optional<SystemControl> scs;
    std::unique_ptr<timing::CoreTimingModel> timing;
    uint32_t resume_pc = 0;
  };
  std::optional<IsolationSnapshot> isolation_;
  void drop_isolation_snapshot();
  uint32_t persist_start_ = 0, persist_end_ = 0;
  // The exception being handled (handler mode), if any: its number and where its frame is.
  struct ActiveException {
    uint32_t number = 0;
    uint32_t frame_address = 0;
  };
  std::optional<ActiveException> active_exception_;
};

}  // namespace fathom::sim
