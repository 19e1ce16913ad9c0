#pragma once
// What a simulator's memory watch saw of one operation execution (profile::MemoryWatch, on the
// simulator or inside the QEMU engine), and how it becomes an operation's sim_* memory figures,
// cross-checked against the harness's own (its MEM record: painted stack, allocator counters).
#include <cstdint>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/run_result.h"

namespace fathom::target {

struct WatchedExecution {
  std::string operation;       // the harness operation whose run function this was
  uint32_t call_address = 0;   // the branch that entered it
  bool returned = false;       // false: the run ended inside it
  uint64_t peak_stack_bytes = 0;
  uint32_t deepest_pc = 0;     // where SP first reached its deepest
  uint64_t unwritten_bytes = 0;  // stack paint left just above the deepest SP
  uint64_t heap_start_bytes = 0;
  uint64_t heap_peak_bytes = 0;  // counting what was in use at the start
  uint64_t allocations = 0;
};

// Copies the figures of the execution the harness's MEM record comes from (the one called from
// memory_run; else the first called from timed_run, where the harness measures memory in the
// first timed run; else the last one) into `op` and notes a disagreement with the harness's
// figures in `op.memory_mismatch`.
void add_simulator_memory(const elf::ElfImage& image,
                          const std::vector<WatchedExecution>& executions,
                          model::OperationResult& op);

}  // namespace fathom::target
