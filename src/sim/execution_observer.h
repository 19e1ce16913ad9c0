#pragma once
// Something that watches execution from outside the firmware (the profiler's call tracker):
// the machine reports every instruction it charges to the timing model, in execution order,
// with its cost, and the exceptions it delivers between them. Observing never changes the
// counts (tests/unit/profile check it).
#include <cstddef>
#include <cstdint>
#include <functional>

#include "sim/instruction.h"

namespace fathom::sim {

// Reads core register `index` (0..12, 13 = SP, 14 = LR, 15 = PC) of the simulated CPU at the
// time of the call; for a sim::Machine: [&m](unsigned r) { return m.read_core_register(r); }.
using RegisterReader = std::function<uint32_t(unsigned index)>;

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;
  // The instruction at `pc` took `cycles` and execution continued at `next`. `executed` is
  // false for an instruction that failed its IT condition. `sp` is the stack pointer at the
  // start of the instruction's translation block (exact at calls, which end blocks).
  virtual void on_instruction(const Instruction& insn, uint32_t pc, uint32_t next,
                              uint32_t cycles, bool executed, uint32_t sp) = 0;

  // A run of consecutive instructions of one translation block, all executed, each continuing
  // at the next (`addresses[i + 1]`) but the last, which continued at `next`: exactly the
  // `count` on_instruction calls it stands for, in one call (the machine reports whole blocks
  // this way; only blocks with an IT-skipped instruction or a data-dependent cost go one
  // instruction at a time). `sp` is as in on_instruction. The default makes those calls; an
  // observer overrides it to work per block (profile::MemoryWatch, profile::CallTracker).
  struct InstructionRun {
    const Instruction* const* instructions = nullptr;
    const uint32_t* addresses = nullptr;
    const uint32_t* cycles = nullptr;  // each instruction's
    size_t count = 0;
    uint64_t total_cycles = 0;  // their sum
    uint32_t next = 0;
    uint32_t sp = 0;
    // Which code this is, for an observer's caches: the same `block` and `first` are the same
    // instructions whenever they run again (`block` is dense from 0, per machine).
    uint32_t block = 0;
    uint32_t first = 0;  // index of the run's first instruction in its block
    // The address right after the run's last instruction: `next` equals it unless that
    // instruction branched.
    uint32_t fallthrough = 0;
    // False only when no instruction of the run writes SP (Instruction::regs_written, which
    // lists PUSH's and POP's implicit SP) and none is a system instruction: the run leaves SP
    // as it found it, so an observer may skip its stack-pointer bookkeeping.
    bool may_write_sp = true;
  };
  virtual void on_instructions(const InstructionRun& run) {
    for (size_t i = 0; i < run.count; ++i)
      on_instruction(*run.instructions[i], run.addresses[i],
                     i + 1 < run.count ? run.addresses[i + 1] : run.next, run.cycles[i], true,
                     run.sp);
  }

  // The core took exception `exception_number` (11 = SVCall) right after the instruction
  // reported last (which raised it; it was reported continuing at `return_address`): the entry
  // took `cycles`, the frame is stacked (SP is now `sp`) and execution continues at `handler`
  // (Thumb bit clear). The next on_instruction is the handler's first instruction.
  virtual void on_exception_entry(uint32_t exception_number, uint32_t handler,
                                  uint32_t return_address, uint32_t cycles, uint32_t sp) {
    (void)exception_number, (void)handler, (void)return_address, (void)cycles, (void)sp;
  }
  // The instruction reported last branched to an EXC_RETURN value (reported as its `next`):
  // the return took `cycles`, the frame is unstacked (SP is now `sp`) and the interrupted code
  // resumes at `resume_pc`, whatever the handler did in between.
  virtual void on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) {
    (void)resume_pc, (void)cycles, (void)sp;
  }

  // Isolation (docs/SIMULATOR.md): the machine took a snapshot of itself right after the
  // instruction reported last; later, after another reported instruction, it restored that
  // snapshot and execution continues from the snapshot's state (registers, RAM, SP) as if
  // nothing had run in between. An observer keeps what it measured across a restore and puts
  // back what describes the machine's state (a shadow call stack, the live heap blocks, SP).
  virtual void on_snapshot() {}
  virtual void on_restore() {}

  // The machine that will report to this observer, for one that reads its registers
  // (sim::Machine::read_core_register's rules); called by the target before the run.
  virtual void attach(const RegisterReader& read_register) { (void)read_register; }
};

}  // namespace fathom::sim
