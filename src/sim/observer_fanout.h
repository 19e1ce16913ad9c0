#pragma once
// Several execution observers watching one run (the profiler's call tracker, the memory watch,
// the primitive-share tracker): the machine takes one observer, this forwards to each in turn.
#include <vector>

#include "sim/execution_observer.h"

namespace fathom::sim {

class ObserverFanout final : public ExecutionObserver {
 public:
  // `observer` is not owned and must outlive the run. Null is ignored.
  void add(ExecutionObserver* observer) {
    if (observer != nullptr) observers_.push_back(observer);
  }
  bool empty() const { return observers_.empty(); }
  // The one observer to give the machine: null if none, the observer itself if only one.
  ExecutionObserver* get() {
    if (observers_.empty()) return nullptr;
    return observers_.size() == 1 ? observers_.front() : this;
  }

  void on_instruction(const Instruction& insn, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override {
    for (ExecutionObserver* o : observers_) o->on_instruction(insn, pc, next, cycles, executed, sp);
  }
  void on_instructions(const InstructionRun& run) override {
    for (ExecutionObserver* o : observers_) o->on_instructions(run);
  }
  void on_exception_entry(uint32_t exception_number, uint32_t handler, uint32_t return_address,
                          uint32_t cycles, uint32_t sp) override {
    for (ExecutionObserver* o : observers_)
      o->on_exception_entry(exception_number, handler, return_address, cycles, sp);
  }
  void on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) override {
    for (ExecutionObserver* o : observers_) o->on_exception_return(resume_pc, cycles, sp);
  }
  void on_snapshot() override {
    for (ExecutionObserver* o : observers_) o->on_snapshot();
  }
  void on_restore() override {
    for (ExecutionObserver* o : observers_) o->on_restore();
  }
  void attach(const RegisterReader& read_register) override {
    for (ExecutionObserver* o : observers_) o->attach(read_register);
  }

 private:
  std::vector<ExecutionObserver*> observers_;
};

}  // namespace fathom::sim
