#pragma once
// The simulated microcontroller: Unicorn's Cortex-M CPU with the board's memory map, the
// system control space, the console register, a per-core timing model and a cycle budget.
//
// Console (docs/SIMULATOR.md): the board's console_address is a 4 KiB register block;
// offset 0 = TX (a write emits its low byte), offset 4 = EXIT (a write ends the run with that
// code).
#include <unicorn/unicorn.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "model/run_result.h"
#include "sim/instruction.h"
#include "sim/instruction_decoder.h"
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

struct RunOutcome {
  bool exited = false;  // the firmware wrote the EXIT register
  int exit_code = -1;
  std::optional<model::Fault> fault;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  std::string console;  // every byte written to TX
  std::vector<CycleCounterRead> cycle_counter_reads;
  double host_seconds = 0;
};

// How the simulator observes execution.
enum class HookMode {
  // A hook per instruction: exact instruction counts, the timing model's cycles, and CYCCNT
  // exact at the reading instruction. The only mode used for measurements.
  kPerInstruction,
  // A hook per translation block that only counts instructions (one "cycle" each). CYCCNT is
  // exact only at block boundaries. For `fathom bench`, to show what the exact mode costs.
  kBlockCountOnly,
};

class Machine {
 public:
  // A machine for `board` with the timing model of its core.
  static util::Result<std::unique_ptr<Machine>> create(const model::Board& board,
                                                       HookMode mode = HookMode::kPerInstruction);
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

 private:
  Machine(const model::Board& board, uc_engine* uc,
          std::unique_ptr<timing::CoreTimingModel> timing);

  static void on_code(uc_engine* uc, uint64_t address, uint32_t size, void* self);
  static void on_block(uc_engine* uc, uint64_t address, uint32_t size, void* self);
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
  void stop_with_fault(std::string kind, uint32_t pc, std::string detail);

  model::Board board_;
  uc_engine* uc_;
  std::unique_ptr<timing::CoreTimingModel> timing_;
  InstructionDecoder decoder_;
  SystemControl scs_;
  uint32_t cpuid_ = 0;                    // SCB->CPUID, for resetting `scs_`
  uc_context* reset_context_ = nullptr;   // CPU registers as created, restored by `run`
  const elf::ElfImage* image_ = nullptr;

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

  // Execution state during `run`.
  RunOutcome outcome_;
  uint64_t budget_ = 0;
  uint32_t current_pc_ = 0;
  const Instruction* current_ = nullptr;
  bool stopping_ = false;
};

}  // namespace fathom::sim
