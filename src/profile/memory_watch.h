#pragma once
// The simulator's own memory measurement (docs/PROFILER.md, "Memory: two measurements"): it
// watches every instruction the machine charges (sim::ExecutionObserver) and, without
// touching the firmware,
//  - tracks the exact stack pointer after every instruction: the SP at the start of each
//    translation block (the `sp` the machine reports) plus the effect of each instruction of
//    the block (PUSH/POP, LDM/STM/VPUSH/VPOP with SP writeback, ADD/SUB SP,#imm, LDR/STR/LDRD/
//    STRD with SP pre/post-index writeback). An SP write it cannot compute from the encoding
//    (MOV SP,Rn; ADD SP,Rn; LDR SP,[..]; MSR MSP) is read from the CPU (`RegisterReader`);
//    in block mode that read is the state after the block's last instruction, so the SP just
//    after the write is worked back from it once the block's remaining instructions are seen
//    (the block ends at a branch, or where the next block's reported SP differs; PC itself is
//    not used: Unicorn leaves it stale in chained blocks);
//  - watches the heap API (the harness's __wrap_malloc/__wrap_calloc/__wrap_realloc/
//    __wrap_free if the image has them, else malloc/calloc/realloc/free): at the branch into
//    an entry it reads the arguments (r0, r1) and the return address (LR), at the branch back
//    to that address the result (r0). Both branches end translation blocks, so the registers
//    read there are exact in every hook mode. Allocator calls made while one is running
//    (calloc -> malloc -> _malloc_r) are part of the outer one and ignored. Blocks are kept in
//    a map pointer -> requested bytes; a realloc that moves counts as an allocation made
//    while the old block is still live (so its peak holds both, as the harness's does);
//  - splits both per operation execution: from a branch into an operation's run function to
//    the branch back to its return address, nested calls included.
// Only the main stack is modelled: fathom's firmware runs in Thread mode on MSP and takes no
// exceptions.
#include <array>
#include <climits>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "elf/elf_image.h"
#include "sim/execution_observer.h"
#include "util/error.h"

namespace fathom::profile {

// What one instruction does to SP, from its encoding.
struct StackPointerEffect {
  enum class Kind : uint8_t {
    kNone,     // does not write SP
    kStatic,   // SP += `delta_bytes`
    kDynamic,  // writes SP with a value the encoding does not give (MOV SP,Rn; LDR SP...)
  };
  Kind kind = Kind::kNone;
  int32_t delta_bytes = 0;
};

// The SP effect of the Thumb instruction whose first halfword is `hw1` (and second `hw2` for
// a 32-bit one; ignored otherwise). ARMv7-M/ARMv8-M encodings (ARM DDI 0403E, A5/A7).
StackPointerEffect stack_pointer_effect(uint16_t hw1, uint16_t hw2);

using RegisterReader = sim::RegisterReader;

struct MemoryWatchOptions {
  struct Operation {
    std::string name;
    uint32_t entry = 0;  // the run function (Thumb bit ignored)
  };
  std::vector<Operation> operations;
  // Heap API entry points (Thumb bit ignored); 0 = absent.
  uint32_t malloc_entry = 0;
  uint32_t calloc_entry = 0;
  uint32_t realloc_entry = 0;
  uint32_t free_entry = 0;
  // The word the harness paints the stack with before its memory run (STACK_PAINT in
  // firmware/harness/fathom_harness.c).
  uint32_t stack_paint_word = 0xC5C5C5C5u;
  // True when the registers read during on_instruction are the state right after the
  // reported instruction (sim::HookMode::kPerInstruction); false for kBlock, where they are
  // the state after the last instruction of its translation block.
  bool registers_after_each_instruction = false;
};

// Fills `operations` from the harness registry of `image` and the heap API from its symbols
// (__wrap_* preferred). An error if the registry is missing or damaged.
util::Result<MemoryWatchOptions> memory_watch_options(const elf::ElfImage& image);

// One execution of one operation's run function.
struct OperationMemory {
  size_t operation = 0;       // index into MemoryWatchOptions::operations
  uint32_t call_address = 0;  // the branch that entered it
  bool returned = false;      // false: the run ended inside it
  uint32_t entry_sp = 0;      // SP at the run function's first instruction
  uint32_t lowest_sp = 0;     // deepest SP at any point of the execution, callees included
  uint32_t deepest_pc = 0;    // the instruction that first took SP there (in block mode the
                              // block's first one when SP changed between blocks)
  uint64_t peak_stack_bytes() const { return entry_sp - lowest_sp; }
  // Bytes from the deepest SP upward that still held the harness's stack paint when the
  // execution returned (MemoryWatchOptions::stack_paint_word; 0 without a memory reader):
  // stack a frame reserved but never wrote, which painting cannot see (newlib's _malloc_r
  // reserves 12 bytes with `sub sp, #12` that its fast path never touches).
  uint64_t unwritten_bytes = 0;
  uint64_t heap_start_bytes = 0;  // bytes in use when it started
  // Highest bytes in use at any point of the execution, counting what was in use at its
  // start (the harness's heap_peak_bytes has the same definition); >= heap_start_bytes.
  uint64_t heap_peak_bytes = 0;
  uint64_t allocations = 0;  // successful malloc/calloc/realloc calls (not realloc(p, 0))
};

class MemoryWatch final : public sim::ExecutionObserver {
 public:
  // `image` supplies the code bytes (SP effects are decoded from them) and must outlive the
  // watch; `read_register` must read the CPU the watched run executes on.
  MemoryWatch(const elf::ElfImage& image, MemoryWatchOptions options,
              RegisterReader read_register);

  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override;
  // A whole run at once when every SP effect in it is static (a cached summary per run: the
  // deepest offset, where, and the net change); one instruction at a time otherwise. The same
  // results as on_instruction for each (tests/unit/profile/memory_watch_test.cpp).
  void on_instructions(const sim::ExecutionObserver::InstructionRun& run) override;
  // Isolation: the firmware's heap and stack are put back to the snapshot's, so are the
  // watch's live blocks and SP; what it measured (executions, whole-run peaks) stays.
  void on_snapshot() override;
  void on_restore() override;
  // Reads a word of the simulated memory (nullopt if unmapped); with it the watch measures
  // OperationMemory::unwritten_bytes.
  using MemoryReader = std::function<std::optional<uint32_t>(uint32_t address)>;
  void set_memory_reader(MemoryReader reader) { read_word_ = std::move(reader); }

  // Every operation execution seen so far, in start order (one still running last, with
  // `returned` false and its figures so far).
  std::vector<OperationMemory> executions() const;

  uint32_t lowest_sp() const { return lowest_sp_; }      // over the whole run
  uint64_t heap_in_use_bytes() const { return heap_in_use_; }
  uint64_t heap_peak_bytes() const { return heap_peak_; }  // over the whole run
  uint64_t allocations() const { return allocations_; }    // over the whole run
  // SP writes whose value could not be established exactly (a second untracked SP write in a
  // block before the first was resolved); 0 on fathom's images.
  uint64_t inexact_sp_events() const { return inexact_sp_events_; }
  // Frees of a pointer the watch never saw allocated (ignored); 0 on fathom's images.
  uint64_t unknown_frees() const { return unknown_frees_; }

 private:
  StackPointerEffect effect_at(uint32_t pc);
  void on_taken_branch(uint32_t pc, uint32_t target);
  bool is_heap_entry(uint32_t target) const {
    return target != 0 && (target == options_.malloc_entry || target == options_.calloc_entry ||
                           target == options_.realloc_entry || target == options_.free_entry);
  }
  // Operation entries, one flag per halfword from the lowest.
  uint32_t operations_origin_ = 0;
  std::vector<bool> operation_entries_;
  bool is_operation_entry(uint32_t target) const {
    const uint32_t index = (target - operations_origin_) / 2;
    return target >= operations_origin_ && index < operation_entries_.size() &&
           operation_entries_[index];
  }
  // A run's SP effects, relative to the SP at its start.
  struct RunSummary {
    uint32_t first = 0;  // the run: instructions [first, first + count) of its block
    uint32_t count = 0;  // 0: an empty cache entry
    bool untracked = false;    // an SP write the encoding does not give: go one at a time
    int32_t lowest_offset = 0;  // deepest point (0 if SP never goes below the start)
    uint32_t lowest_index = 0;  // the instruction that first reaches it
    int32_t end_offset = 0;     // SP after the last instruction
  };
  const RunSummary& summary_of(const sim::ExecutionObserver::InstructionRun& run);
  struct BlockSummaries {
    std::array<RunSummary, 4> entries;
    uint8_t next = 0;  // the entry to replace
  };
  std::vector<BlockSummaries> summaries_;  // by InstructionRun::block
  void set_sp(uint32_t value);  // a new exact SP after an instruction
  void resolve_deferred(uint32_t sp_after_last);
  void on_heap_entry(int kind, uint32_t pc);
  void on_heap_return();
  void heap_level_changed();

  const elf::ElfImage& image_;
  MemoryWatchOptions options_;
  RegisterReader read_register_;
  MemoryReader read_word_;

  // SP effects per code halfword, decoded on first execution.
  uint32_t code_origin_ = 0;
  std::vector<uint8_t> code_;
  static constexpr int32_t kUndecoded = INT32_MIN, kDynamicSp = INT32_MIN + 1;
  std::vector<int32_t> effects_;

  bool started_ = false;
  uint32_t block_sp_ = 0;  // the `sp` reported with the previous instruction
  uint32_t sp_ = 0;        // exact SP after the previous instruction
  uint32_t pc_ = 0;        // the instruction being reported
  uint32_t lowest_sp_ = UINT32_MAX;
  // Block mode, after an untracked SP write inside a block: SP after the block's last
  // instruction (`deferred_end_sp_`, read from the CPU) and the static deltas of the
  // instructions after the write, to work back from it.
  bool deferred_ = false;
  uint32_t deferred_end_sp_ = 0;
  std::vector<int32_t> deferred_deltas_;

  // Heap.
  std::unordered_map<uint32_t, uint64_t> blocks_;  // pointer -> requested bytes
  uint64_t heap_in_use_ = 0;
  uint64_t heap_peak_ = 0;
  uint64_t allocations_ = 0;
  uint64_t unknown_frees_ = 0;
  uint64_t inexact_sp_events_ = 0;
  struct HeapCall {
    int kind = -1;  // -1: none running
    uint32_t arg0 = 0, arg1 = 0;
    uint32_t return_address = 0;
  } heap_call_;

  // What on_snapshot saved for on_restore.
  struct Saved {
    bool started = false;
    uint32_t block_sp = 0, sp = 0;
    bool deferred = false;
    uint32_t deferred_end_sp = 0;
    std::vector<int32_t> deferred_deltas;
    std::unordered_map<uint32_t, uint64_t> blocks;
    uint64_t heap_in_use = 0;
    HeapCall heap_call;
    bool in_operation = false;
    uint32_t operation_return = 0;
  };
  std::optional<Saved> saved_;

  // Operations.
  std::unordered_map<uint32_t, size_t> operation_by_entry_;
  std::vector<OperationMemory> executions_;
  bool in_operation_ = false;
  uint32_t operation_return_ = 0;
};

}  // namespace fathom::profile
