#pragma once
// The profiler's shadow call stack: it watches every instruction the simulator charges
// (sim::ExecutionObserver) and builds, without touching the firmware, the call tree with
// inclusive/exclusive cycles and instructions, call counts, per-address costs, call edges and
// (for the first execution of each profiled operation) the ordered call trace.
//
// How control flow is read (docs/PROFILER.md):
//  - a call is a taken BL/BLX (it writes LR); the callee is the target, the return address the
//    next instruction;
//  - a return is a taken register or loaded branch (BX LR, POP {..,PC}, LDR PC, LDM with PC,
//    BX Rn) to the return address of a frame on the shadow stack; every frame above it ends
//    (a longjmp or an exception-free unwinding lands here too);
//  - a tail call is any other taken branch to a function entry other than the current
//    function's: the current frame ends and the callee takes its place, returning to the same
//    caller — except when the current frame is a profiled operation's root (a run function
//    that ends in `b.w library_function`): the root stays open, the callee nests under it, and
//    both end at the return;
//  - anything else stays inside the current function.
//  - an exception entry (sim::ExecutionObserver::on_exception_entry: an SVC) pushes a frame for
//    the handler under the interrupted function, marked Frame::exception_handler; its cost
//    includes the entry and return latencies (charged to the handler's entry address). The
//    exception return pops it, and every frame the handler left open above it.
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "profile/profile.h"
#include "sim/execution_observer.h"

namespace fathom::profile {

struct TrackerOptions {
  // Function entry addresses (Thumb bit clear), to recognise tail calls and name frames.
  std::vector<uint32_t> function_entries;
  // Operations to profile: each call of `entry` is one execution of `name`. Calls are summed
  // into one profile per operation; the first one is also traced.
  struct Span {
    std::string name;
    uint32_t entry = 0;
  };
  std::vector<Span> spans;
  // Most trace events one operation keeps. A trace that would need more is dropped whole
  // (Profile::trace_truncated): exporters then lay out the call tree instead. 200 000 events
  // keep a Perfetto file of the trace under about 40 MB (docs/PROFILER.md).
  size_t event_limit = 200'000;
  // Calls of a span's entry made directly from one of these functions (entry addresses) are not
  // executions of the operation: the harness's memory_run, an untimed extra execution that
  // measures the stack, stays out of the operation's profile (and in the whole run's).
  std::vector<uint32_t> excluded_callers;
  // Only the call tree (nodes with their costs and calls): no per-address costs, call edges or
  // trace. What a consumer that reads the tree alone wants (primitive share), at a fraction
  // of the cost per instruction.
  bool call_tree_only = false;
};

class CallTracker final : public sim::ExecutionObserver {
 public:
  explicit CallTracker(TrackerOptions options);

  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override;
  // A whole run at once: its costs go to the function on top of the shadow stack (only a run's
  // last instruction can call, return or branch away), then its last instruction's control
  // flow as on_instruction. The same results as on_instruction for each.
  void on_instructions(const sim::ExecutionObserver::InstructionRun& run) override;
  void on_exception_entry(uint32_t exception_number, uint32_t handler, uint32_t return_address,
                          uint32_t cycles, uint32_t sp) override;
  void on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) override;
  // Isolation: at a restore, the frames opened since the snapshot end (their costs stay) and
  // the snapshot's frames above the common ones open again, as execution resumes there.
  void on_snapshot() override;
  void on_restore() override;

  // Ends every open frame and returns the profiles: "whole run" first, then one per span
  // that ran, in `spans` order. Frames carry addresses and placeholder names
  // (profile/symbolize.h fills in names and source positions).
  ProfileSet finish();

  uint64_t cycles() const { return now_cycles_; }

 private:
  struct Costs {
    uint64_t cycles = 0;
    uint64_t instructions = 0;
    uint64_t count = 0;
  };
  struct Tree {  // one profile under construction
    Profile profile;
    std::unordered_map<uint64_t, uint32_t> child_index;  // (parent node << 32 | frame) -> node
    // A direct-mapped cache in front of `child_index` (a call looks its node up).
    struct CachedNode {
      uint64_t key = UINT64_MAX;
      uint32_t node = 0;
    };
    static constexpr size_t kNodeCacheSize = 4096;
    std::vector<CachedNode> node_cache = std::vector<CachedNode>(kNodeCacheSize);
    std::unordered_map<uint64_t, Costs> addresses;  // (node << 32 | address) -> self cost
    // A direct-mapped cache in front of `addresses` (their elements never move): loops hit it,
    // which saves a hash lookup per instruction.
    struct CachedCost {
      uint64_t key = UINT64_MAX;
      Costs* costs = nullptr;
    };
    std::vector<CachedCost> address_cache = std::vector<CachedCost>(8192);
    Costs& address_costs(uint32_t node, uint32_t address) {
      const uint64_t key = static_cast<uint64_t>(node) << 32 | address;
      CachedCost& c = address_cache[((address >> 1) ^ (node * 0x9E3779B1u >> 19)) & 8191];
      if (c.key != key) c = {key, &addresses[key]};
      return *c.costs;
    }
    struct EdgeKey {
      uint32_t caller, callee, call_address;
      bool operator==(const EdgeKey&) const = default;
    };
    struct EdgeHash {
      size_t operator()(const EdgeKey& k) const {
        return (uint64_t{k.caller} * 0x9E3779B97F4A7C15ull) ^ (uint64_t{k.callee} << 20) ^
               k.call_address;
      }
    };
    std::unordered_map<EdgeKey, Costs, EdgeHash> edges;
    uint32_t node(int32_t parent, uint32_t frame);
  };
  struct StackFrame {
    uint32_t frame = 0;           // index into frames_
    uint32_t function = 0;        // entry address
    uint32_t return_address = 0;  // 0 for the bottom frame
    uint32_t call_address = 0;
    uint32_t caller_frame = 0;
    uint64_t entry_cycles = 0;
    uint64_t entry_instructions = 0;
    int32_t whole_node = -1;
    int32_t span_node = -1;
    bool traced = false;
    // Entered by a tail call from the frame below it, which stays open (an operation's root
    // frame does): both end at the same return.
    bool returns_with_caller = false;
    // An exception handler's frame: only the exception return ends it.
    bool exception_handler = false;
  };

  uint32_t frame_for(uint32_t function);
  // Charges `count` instructions at `addresses` (each's `cycles`, their sum `total_cycles`),
  // run with SP `sp`, to the function on top of the shadow stack.
  void charge(const uint32_t* addresses, const uint32_t* cycles, size_t count,
              uint64_t total_cycles, uint32_t sp);
  // A taken branch (next != pc + size) of an executed instruction: call, return, tail call.
  void on_taken_branch(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t sp);
  void push(uint32_t function, uint32_t return_address, uint32_t call_address, uint32_t sp);
  void pop(uint32_t sp);
  // Adds `cycles` that no instruction took (an exception latency) to the self cost of frame
  // `f`, at `address`.
  void charge_latency(const StackFrame& f, uint32_t address, uint32_t cycles);
  void leave(Tree& tree, const StackFrame& f, int32_t node, uint64_t cycles, uint64_t instructions);

  TrackerOptions options_;
  // Function entries, one flag per halfword from the lowest: a tail call is looked up at every
  // taken branch.
  uint32_t entries_origin_ = 0;
  std::vector<bool> entries_;
  bool is_entry(uint32_t address) const {
    const uint32_t index = (address - entries_origin_) / 2;
    return (address & 1u) == 0 && address >= entries_origin_ && index < entries_.size() &&
           entries_[index];
  }
  std::unordered_map<uint32_t, size_t> span_by_entry_;
  std::unordered_set<uint32_t> excluded_callers_;
  std::vector<Frame> frames_;
  std::unordered_map<uint32_t, uint32_t> frame_index_;  // function entry -> frame
  struct CachedFrame {
    uint32_t function = UINT32_MAX;
    uint32_t frame = 0;
  };
  static constexpr size_t kFrameCacheSize = 1024;
  std::vector<CachedFrame> frame_cache_ = std::vector<CachedFrame>(kFrameCacheSize);
  Tree whole_;
  std::vector<Tree> spans_;
  std::vector<StackFrame> stack_;
  std::vector<StackFrame> snapshot_stack_;  // stack_ at on_snapshot
  int32_t active_span_ = -1;
  size_t span_base_ = 0;      // stack index of the active span's root frame
  bool tracing_ = false;      // recording the active span's events
  uint64_t span_start_cycles_ = 0;
  uint64_t now_cycles_ = 0;
  uint64_t now_instructions_ = 0;
  uint32_t initial_sp_ = 0;
  uint32_t lowest_sp_ = UINT32_MAX;
  uint32_t span_lowest_sp_ = UINT32_MAX;
};

}  // namespace fathom::profile
