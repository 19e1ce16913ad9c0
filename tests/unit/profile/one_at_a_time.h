#pragma once
// A test observer that forwards only single instructions: the machine's runs
// (ExecutionObserver::on_instructions) reach `target` through ExecutionObserver's default, one
// on_instruction call each — the reference for an observer's per-run path.
#include <cstdint>

#include "sim/execution_observer.h"

namespace fathom::testing {

class OneAtATime final : public sim::ExecutionObserver {
 public:
  explicit OneAtATime(sim::ExecutionObserver& target) : target_(target) {}
  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override {
    target_.on_instruction(insn, pc, next, cycles, executed, sp);
    ++instructions;
  }
  void on_exception_entry(uint32_t n, uint32_t handler, uint32_t ret, uint32_t cycles,
                          uint32_t sp) override {
    target_.on_exception_entry(n, handler, ret, cycles, sp);
  }
  void on_exception_return(uint32_t resume, uint32_t cycles, uint32_t sp) override {
    target_.on_exception_return(resume, cycles, sp);
  }
  void on_snapshot() override { target_.on_snapshot(); }
  void on_restore() override { target_.on_restore(); }
  uint64_t instructions = 0;

 private:
  sim::ExecutionObserver& target_;
};

}  // namespace fathom::testing
