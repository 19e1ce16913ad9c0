// sim::Machine running the test firmware in tests/fixtures/firmware (built by
// tests/CMakeLists.txt with arm-none-eabi-gcc): console and exit, every fault kind, the cycle
// budget, the cycle counter against the timing model, and determinism.
#include "sim/machine.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "sim/instruction_decoder.h"
#include "sim/timing/core_timing_model.h"
#include "fixture_board.h"
#include "../test_paths.h"

namespace fathom::sim {
namespace {

// Values of `fixture_mode` (tests/fixtures/firmware/sim_fixture.c).
enum Mode : uint32_t {
  kHello = 0,
  kTiming = 1,
  kUnmappedRead = 2,
  kWriteFlash = 3,
  kUndefined = 4,
  kSpin = 5,
  kStackOverflow = 6,
  kMixed = 7,
  kSvc = 10,
};

constexpr uint64_t kBudgetCycles = 5'000'000;

class MachineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
    if (dir.empty())
      GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time; no test firmware";
    auto img = elf::ElfImage::load(dir + "/sim_fixture.elf");
    ASSERT_TRUE(img) << img.error().message;
    image_ = std::make_unique<elf::ElfImage>(std::move(*img));
  }

  // A fresh machine with the fixture loaded and `fixture_mode` set to `mode`.
  std::unique_ptr<Machine> machine_for(uint32_t mode) {
    auto m = Machine::create(board_);
    EXPECT_TRUE(m) << m.error().message;
    if (!m) return nullptr;
    auto loaded = (*m)->load(*image_);
    EXPECT_TRUE(loaded) << loaded.error().message;
    set_mode(**m, mode);
    return std::move(*m);
  }

  void set_mode(Machine& m, uint32_t mode) {
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    ASSERT_NE(s, nullptr);
    ASSERT_EQ(s->size_bytes, 4u);
    auto written = m.write_memory(s->address, {static_cast<uint8_t>(mode), 0, 0, 0});
    ASSERT_TRUE(written) << written.error().message;
  }

  RunOutcome run(uint32_t mode, uint64_t budget = kBudgetCycles) {
    auto m = machine_for(mode);
    if (!m) return {};
    return m->run(budget);
  }

  const elf::Symbol& symbol(const std::string& name) {
    const elf::Symbol* s = image_->find_symbol(name);
    EXPECT_NE(s, nullptr) << name;
    static const elf::Symbol kMissing{};
    return s ? *s : kMissing;
  }

  model::Board board_ = fathom::testing::fixture_board();
  std::unique_ptr<elf::ElfImage> image_;
};

// "name value" lines printed by the timing mode.
std::map<std::string, uint32_t> printed_values(const std::string& console) {
  std::map<std::string, uint32_t> out;
  std::istringstream in(console);
  std::string name;
  uint32_t value = 0;
  while (in >> name >> value) out[name] = value;
  return out;
}

TEST_F(MachineTest, ConsoleOutputAndExitCode) {
  const RunOutcome out = run(kHello);
  EXPECT_FALSE(out.fault) << out.fault->kind << " at " << out.fault->function << ": "
                          << out.fault->detail;
  EXPECT_TRUE(out.exited);
  EXPECT_EQ(out.exit_code, 7);
  EXPECT_EQ(out.console, "hello\n");
  EXPECT_GT(out.instructions, 0u);
  EXPECT_GE(out.cycles, out.instructions - 1) << "only IT costs less than one cycle";
  EXPECT_TRUE(out.cycle_counter_reads.empty());
}

struct FaultCase {
  uint32_t mode;
  const char* kind;
  const char* function;
};

// Shown by gtest (and in ctest's test names) instead of a byte dump.
void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.kind; }

class MachineFaultTest : public MachineTest, public ::testing::WithParamInterface<FaultCase> {};

TEST_P(MachineFaultTest, ReportsKindAndFunctionAndStops) {
  const FaultCase& c = GetParam();
  const RunOutcome out = run(c.mode);
  ASSERT_TRUE(out.fault) << "console: " << out.console;
  EXPECT_EQ(out.fault->kind, c.kind) << out.fault->detail;
  const elf::Symbol* at = image_->function_at(out.fault->pc);
  ASSERT_NE(at, nullptr) << std::hex << out.fault->pc;
  EXPECT_EQ(at->name, c.function);
  EXPECT_EQ(out.fault->function.substr(0, at->name.size()), c.function) << out.fault->function;
  EXPECT_FALSE(out.fault->detail.empty());
  // The run stopped at the fault: the firmware's fault handler (exit code 0xFF) never ran.
  EXPECT_FALSE(out.exited);
  EXPECT_EQ(out.exit_code, -1);
  EXPECT_EQ(out.console, "");
  if (c.mode != kSpin) {
    EXPECT_LT(out.cycles, kBudgetCycles);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Faults, MachineFaultTest,
    ::testing::Values(FaultCase{kUnmappedRead, "unmapped-read", "fault_unmapped_read"},
                      FaultCase{kWriteFlash, "write-to-read-only", "fault_write_flash"},
                      FaultCase{kUndefined, "undefined-instruction", "fault_undefined"},
                      FaultCase{kSpin, "budget-exhausted", "spin_forever"},
                      FaultCase{kStackOverflow, "stack-overflow", "recurse"}),
    [](const ::testing::TestParamInfo<FaultCase>& info) {
      std::string name = info.param.kind;
      for (char& ch : name)
        if (ch == '-') ch = '_';
      return name;
    });

TEST_F(MachineTest, UnmappedReadNamesTheAddress) {
  const RunOutcome out = run(kUnmappedRead);
  ASSERT_TRUE(out.fault);
  EXPECT_NE(out.fault->detail.find("0x30000000"), std::string::npos) << out.fault->detail;
}

TEST_F(MachineTest, BudgetExhaustionStopsAtTheBudget) {
  for (uint64_t budget : {1'000u, 12'345u, 100'000u}) {
    SCOPED_TRACE(budget);
    const RunOutcome out = run(kSpin, budget);
    ASSERT_TRUE(out.fault);
    EXPECT_EQ(out.fault->kind, "budget-exhausted");
    EXPECT_GE(out.cycles, budget);
    // The loop is one taken branch; the machine stops at the first instruction at or past the
    // budget, so it overshoots by less than one instruction's cost.
    EXPECT_LT(out.cycles, budget + 16);
  }
  // Even the hello run cannot finish in a handful of cycles.
  const RunOutcome tiny = run(kHello, 10);
  ASSERT_TRUE(tiny.fault);
  EXPECT_EQ(tiny.fault->kind, "budget-exhausted");
  EXPECT_FALSE(tiny.exited);
}

// Replays the instructions from symbol `first_read` to `second_read` (exclusive) through a fresh
// timing model, as the machine would execute them: straight on, except that a branch goes to
// `second_read` (the only branch in these sequences targets it). Returns {cycles, instructions}.
std::pair<uint64_t, uint64_t> replay(const elf::ElfImage& image, const model::Board& board,
                                     uint32_t from, uint32_t to) {
  auto model = timing::make_timing_model(board);
  EXPECT_TRUE(model);
  if (!model) return {0, 0};
  const InstructionDecoder decoder;
  uint64_t cycles = 0, instructions = 0;
  for (uint32_t pc = from; pc != to && instructions < 64;) {
    auto bytes = image.read(pc, 4);
    EXPECT_TRUE(bytes) << std::hex << pc;
    if (!bytes) break;
    const Instruction insn = decoder.decode(pc, *bytes);
    EXPECT_TRUE(insn.valid) << std::hex << pc;
    const uint32_t next = insn.cls == InstrClass::kBranch ? to : pc + insn.size_bytes;
    cycles += (*model)->cycles(insn, pc, next);
    ++instructions;
    pc = next;
  }
  return {cycles, instructions};
}

TEST_F(MachineTest, CycleCounterMatchesTheMachineAndTheTimingModel) {
  const RunOutcome out = run(kTiming);
  ASSERT_FALSE(out.fault) << out.fault->kind << " at " << out.fault->function;
  ASSERT_TRUE(out.exited);
  EXPECT_EQ(out.exit_code, 0);
  const auto printed = printed_values(out.console);
  const std::vector<std::string> order = {"empty", "adds", "dependent_loads", "taken_branch"};
  const std::vector<std::string> labels = {"empty", "adds", "loads", "branch"};
  const std::vector<uint64_t> instructions_between = {1, 11, 3, 2};
  ASSERT_EQ(printed.size(), order.size()) << out.console;
  // Two CYCCNT reads per sequence and no others.
  ASSERT_EQ(out.cycle_counter_reads.size(), 2 * order.size());

  // The counter runs at exactly the machine's rate: value - cycles is one constant.
  const auto& reads = out.cycle_counter_reads;
  for (const auto& r : reads)
    EXPECT_EQ(static_cast<uint32_t>(r.value - r.cycles),
              static_cast<uint32_t>(reads[0].value - reads[0].cycles));

  for (size_t i = 0; i < order.size(); ++i) {
    SCOPED_TRACE(order[i]);
    const CycleCounterRead& first = reads[2 * i];
    const CycleCounterRead& second = reads[2 * i + 1];
    const uint32_t measured = printed.at(order[i]);
    EXPECT_EQ(measured, second.value - first.value);
    EXPECT_EQ(measured, second.cycles - first.cycles);
    EXPECT_EQ(second.instructions - first.instructions, instructions_between[i]);
    // The reads happen exactly at the labelled instructions, and cost what the model says.
    const auto [cycles, instructions] =
        replay(*image_, board_, symbol(labels[i] + "_first_read").address,
               symbol(labels[i] + "_second_read").address);
    EXPECT_EQ(instructions, instructions_between[i]);
    EXPECT_EQ(measured, cycles);
  }
  // Ten single-cycle adds measure exactly ten cycles more than nothing, on any Cortex-M model.
  EXPECT_EQ(printed.at("adds") - printed.at("empty"), 10u);
  // A taken branch: on the M33 (this board) a taken 16-bit branch after a 16-bit instruction
  // that does not set flags (here `ldr r2, [r1]`) pairs with it and costs 1 (measured,
  // docs/TIMING.md "Cortex-M33"); the M3/M4 charge 1 + P.
  EXPECT_EQ(printed.at("taken_branch") - printed.at("empty"), 1u);
}

void expect_same(const RunOutcome& a, const RunOutcome& b) {
  EXPECT_EQ(a.exited, b.exited);
  EXPECT_EQ(a.exit_code, b.exit_code);
  EXPECT_EQ(a.cycles, b.cycles);
  EXPECT_EQ(a.instructions, b.instructions);
  EXPECT_EQ(a.console, b.console);
  ASSERT_EQ(a.cycle_counter_reads.size(), b.cycle_counter_reads.size());
  for (size_t i = 0; i < a.cycle_counter_reads.size(); ++i) {
    EXPECT_EQ(a.cycle_counter_reads[i].value, b.cycle_counter_reads[i].value);
    EXPECT_EQ(a.cycle_counter_reads[i].cycles, b.cycle_counter_reads[i].cycles);
    EXPECT_EQ(a.cycle_counter_reads[i].instructions, b.cycle_counter_reads[i].instructions);
  }
  EXPECT_EQ(a.fault.has_value(), b.fault.has_value());
  if (a.fault && b.fault) {
    EXPECT_EQ(a.fault->kind, b.fault->kind);
    EXPECT_EQ(a.fault->pc, b.fault->pc);
  }
}

TEST_F(MachineTest, SameImageGivesTheSameCountsOnFreshMachines) {
  for (uint32_t mode : {kHello, kTiming, kStackOverflow}) {
    SCOPED_TRACE(mode);
    expect_same(run(mode), run(mode));
  }
}

TEST_F(MachineTest, RunningTwiceOnOneMachineStartsFromReset) {
  auto m = machine_for(kTiming);
  ASSERT_TRUE(m);
  const RunOutcome first = m->run(kBudgetCycles);
  const RunOutcome second = m->run(kBudgetCycles);
  ASSERT_TRUE(first.exited);
  expect_same(first, second);
}

TEST_F(MachineTest, RunAfterAFaultStartsFromReset) {
  const RunOutcome fresh = run(kTiming);
  for (uint32_t fault_mode : {kUndefined, kStackOverflow, kSpin}) {
    SCOPED_TRACE(fault_mode);
    auto m = machine_for(fault_mode);
    ASSERT_TRUE(m);
    ASSERT_TRUE(m->run(100'000).fault);
    set_mode(*m, kTiming);
    expect_same(fresh, m->run(kBudgetCycles));
  }
}

TEST_F(MachineTest, LoadRefusesAnImageOutsideTheMemoryMap) {
  model::Board small = board_;
  small.memory[0].origin = 0x00100000u;  // flash moved away from the image's addresses
  auto m = Machine::create(small);
  ASSERT_TRUE(m) << m.error().message;
  auto loaded = (*m)->load(*image_);
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().message.find("does not fit"), std::string::npos);
}

TEST(MachineCreate, RefusesUnknownCoreAndUnalignedRegions) {
  model::Board b = fathom::testing::fixture_board();
  b.core = "cortex-z80";
  auto unknown = Machine::create(b);
  ASSERT_FALSE(unknown);
  EXPECT_NE(unknown.error().message.find("cortex-z80"), std::string::npos);

  b = fathom::testing::fixture_board();
  b.memory[1].length_bytes = 0x40001;
  auto unaligned = Machine::create(b);
  ASSERT_FALSE(unaligned);
  EXPECT_NE(unaligned.error().message.find("4 KiB"), std::string::npos);
}

// kBlock charges whole translation blocks and reads divide/multiply operands through
// per-address hooks; it must give exactly what the per-instruction reference gives, CYCCNT
// reads, faults and operand-dependent costs included, on every core's model.
TEST_F(MachineTest, BlockHooksGiveThePerInstructionCounts) {
  for (const char* core : {"cortex-m33", "cortex-m4", "cortex-m3"}) {
    SCOPED_TRACE(core);
    model::Board board = board_;
    board.core = core;
    for (uint32_t mode :
         {kHello, kTiming, kMixed, kUnmappedRead, kUndefined, kStackOverflow, kSvc}) {
      SCOPED_TRACE(mode);
      RunOutcome outcomes[2];
      const HookMode hook_modes[2] = {HookMode::kPerInstruction, HookMode::kBlock};
      for (int k = 0; k < 2; ++k) {
        auto m = Machine::create(board, hook_modes[k]);
        ASSERT_TRUE(m) << m.error().message;
        ASSERT_TRUE((*m)->load(*image_));
        set_mode(**m, mode);
        outcomes[k] = (*m)->run(kBudgetCycles);
      }
      expect_same(outcomes[0], outcomes[1]);
      EXPECT_EQ(outcomes[1].inexact_events, 0u);
      if (mode == kMixed) {
        EXPECT_TRUE(outcomes[1].exited);
        EXPECT_GT(outcomes[1].cycle_counter_reads.size(), 10u);
      }
    }
  }
}

// Counts what an observer sees; its presence makes kBlock charge every instruction.
class CountingObserver final : public ExecutionObserver {
 public:
  void on_instruction(const Instruction&, uint32_t pc, uint32_t next, uint32_t cycles, bool,
                      uint32_t) override {
    cycles_ += cycles;
    ++instructions_;
    last_pc_ = pc;
    last_next_ = next;
  }
  void on_exception_entry(uint32_t number, uint32_t handler, uint32_t return_address,
                          uint32_t cycles, uint32_t sp) override {
    cycles_ += cycles;
    events_.push_back({true, number, handler, return_address, cycles, sp, last_pc_, last_next_});
  }
  void on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) override {
    cycles_ += cycles;
    events_.push_back({false, 0, 0, resume_pc, cycles, sp, last_pc_, last_next_});
  }
  struct Event {
    bool entry;
    uint32_t number, handler, resume_or_return, cycles, sp;
    uint32_t previous_pc, previous_next;  // the instruction reported just before
  };
  uint64_t cycles_ = 0;
  uint64_t instructions_ = 0;
  uint32_t last_pc_ = 0, last_next_ = 0;
  std::vector<Event> events_;
};

// Mode 10: SVC entry and return as the architecture does them (the handler's work shows, the
// registers survive), in both hook modes, with the latencies in the counts.
TEST_F(MachineTest, SvcRunsTheHandlerAndReturns) {
  for (HookMode hook : {HookMode::kBlock, HookMode::kPerInstruction}) {
    SCOPED_TRACE(static_cast<int>(hook));
    auto m = Machine::create(board_, hook);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_TRUE((*m)->load(*image_));
    set_mode(**m, kSvc);
    CountingObserver observer;
    (*m)->set_observer(&observer);
    const RunOutcome out = (*m)->run(kBudgetCycles);
    ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
    EXPECT_TRUE(out.exited);
    EXPECT_EQ(out.exit_code, 10);
    const auto printed = printed_values(out.console);
    // 0 -> 1 -> 4 -> 13: three SVCs reached svc_service through the handler.
    EXPECT_EQ(printed.at("svc_count"), 13u) << out.console;
    EXPECT_EQ(observer.cycles_, out.cycles);
    EXPECT_EQ(observer.instructions_, out.instructions);
    // Four round trips (measure_svc, then three from svc_caller), entry and return in turn.
    ASSERT_EQ(observer.events_.size(), 8u);
    const uint32_t handler = symbol("SVC_Handler").address;
    for (size_t i = 0; i < observer.events_.size(); i += 2) {
      const auto& entry = observer.events_[i];
      const auto& ret = observer.events_[i + 1];
      ASSERT_TRUE(entry.entry);
      ASSERT_FALSE(ret.entry);
      EXPECT_EQ(entry.number, 11u);
      EXPECT_EQ(entry.handler, handler & ~1u);
      EXPECT_EQ(entry.cycles, 12u);  // Cortex-M33 model
      EXPECT_EQ(ret.cycles, 10u);
      // Reported after the SVC, which continued at the return address.
      EXPECT_EQ(entry.previous_next, entry.resume_or_return);
      EXPECT_EQ(entry.previous_pc + 2, entry.resume_or_return);
      // The return follows a branch to EXC_RETURN and resumes after the SVC.
      EXPECT_EQ(ret.previous_next, 0xFFFFFFF9u);
      EXPECT_EQ(ret.resume_or_return, entry.resume_or_return);
      // An 8-word frame at an 8-byte aligned address: measure_svc runs with SP 4 off
      // alignment, so its frame is realigned by 4 (xPSR bit 9) and SP comes back 36 higher.
      EXPECT_EQ(entry.sp % 8, 0u);
      EXPECT_EQ(ret.sp - entry.sp, i == 0 ? 36u : 32u);
    }
    EXPECT_EQ(observer.events_[0].resume_or_return, symbol("svc_second_read").address & ~1u);
  }
}

// A minimal round trip on the Cortex-M4 model, by hand (TRM DDI 0439 3.3.1 and 5.5.1, zero
// wait states): from the first CYCCNT read to the second, measure_svc executes
//   LDR r2,[r1]   2 + 1 (its address register was written by the MOVT just before: AGU stall)
//   SVC #0        1
//   entry        12
//   CBNZ r0       1 (not taken; a 16-bit branch target pays no alignment penalty)
//   BX LR         1 + 2 (taken, register target)
//   return       10
// = 30 cycles; the second LDR is read at its start.
TEST_F(MachineTest, SvcRoundTripCostsEntryHandlerAndReturnOnM4) {
  board_.core = "cortex-m4";
  for (HookMode hook : {HookMode::kBlock, HookMode::kPerInstruction}) {
    auto m = Machine::create(board_, hook);
    ASSERT_TRUE(m) << m.error().message;
    ASSERT_TRUE((*m)->load(*image_));
    set_mode(**m, kSvc);
    const RunOutcome out = (*m)->run(kBudgetCycles);
    ASSERT_TRUE(out.exited) << out.console;
    EXPECT_EQ(printed_values(out.console).at("svc_round_trip"), 30u);
  }
}

// The handler is the word at VTOR + 44, read when the SVC is taken (VTOR starts at the flash
// origin): pointing the vector at the startup's Default_Handler makes the run exit 0xFF.
TEST_F(MachineTest, SvcVectorComesFromTheVectorTable) {
  auto m = machine_for(kSvc);
  ASSERT_TRUE(m);
  const uint32_t default_handler = symbol("Default_Handler").address | 1u;
  std::vector<uint8_t> bytes(4);
  for (size_t i = 0; i < 4; ++i) bytes[i] = static_cast<uint8_t>(default_handler >> (8 * i));
  ASSERT_TRUE(m->write_memory(11 * 4, bytes));
  const RunOutcome out = m->run(kBudgetCycles);
  ASSERT_FALSE(out.fault) << out.fault->kind << ": " << out.fault->detail;
  EXPECT_TRUE(out.exited);
  EXPECT_EQ(out.exit_code, 0xFF);
}

// kBlock charges a block that ran before from an equal timing-model state with the cycles it
// took then (Block::Memo, CoreTimingModel::state_key). The mixed fixture's loop makes the memo
// hit; the counts, CYCCNT reads included, must stay those of the per-instruction reference and
// of the charged path (an observer turns the memo off), with and without flash wait states (the
// fetch model's state is part of the key), and on a second run of one machine, whose blocks all
// have memo entries already. An instruction cache does not fit a compact state: no memo.
TEST_F(MachineTest, MemoizedBlocksGiveTheChargedCosts) {
  struct Memory {
    const char* name;
    uint32_t wait_states;
    bool prefetch;
    bool icache;
    bool memoized;
  };
  const Memory memories[] = {{"ws=0", 0, true, false, true},
                             {"ws=2 prefetch", 2, true, false, true},
                             {"ws=3 no prefetch", 3, false, false, true},
                             {"ws=2 icache", 2, true, true, false}};
  for (const char* core : {"cortex-m33", "cortex-m4", "cortex-m3"}) {
    for (const Memory& memory : memories) {
      SCOPED_TRACE(std::string(core) + " " + memory.name);
      model::Board board = board_;
      board.core = core;
      board.memory[0].wait_states = memory.wait_states;
      board.prefetch = memory.prefetch;
      board.icache = memory.icache;
      auto machine = [&](HookMode mode) {
        auto m = Machine::create(board, mode);
        EXPECT_TRUE(m) << m.error().message;
        if (!m) return std::unique_ptr<Machine>();
        EXPECT_TRUE((*m)->load(*image_));
        set_mode(**m, kMixed);
        return std::move(*m);
      };
      auto reference_machine = machine(HookMode::kPerInstruction);
      auto block_machine = machine(HookMode::kBlock);
      auto observed_machine = machine(HookMode::kBlock);
      ASSERT_TRUE(reference_machine && block_machine && observed_machine);
      const RunOutcome reference = reference_machine->run(kBudgetCycles);
      ASSERT_TRUE(reference.exited) << reference.console;
      const RunOutcome first = block_machine->run(kBudgetCycles);
      const RunOutcome second = block_machine->run(kBudgetCycles);
      // Observed: every instruction is still reported with its cost, from the memo when the
      // block was charged before with an observer (the second run), so the sums and the
      // per-instruction costs are the reference's.
      CountingObserver observer, observer_again;
      observed_machine->set_observer(&observer);
      const RunOutcome charged = observed_machine->run(kBudgetCycles);
      observed_machine->set_observer(&observer_again);
      const RunOutcome charged_again = observed_machine->run(kBudgetCycles);

      expect_same(reference, first);
      expect_same(reference, second);
      expect_same(reference, charged);
      expect_same(reference, charged_again);
      EXPECT_EQ(observer.cycles_, charged.cycles);
      EXPECT_EQ(observer.instructions_, charged.instructions);
      EXPECT_EQ(observer_again.cycles_, charged_again.cycles);
      EXPECT_EQ(observer_again.instructions_, charged_again.instructions);
      EXPECT_EQ(reference.memoized_blocks, 0u);
      if (memory.memoized) {
        EXPECT_GT(charged_again.memoized_blocks, charged.memoized_blocks);
      } else {
        EXPECT_EQ(charged_again.memoized_blocks, 0u);
      }
      if (memory.memoized) {
        EXPECT_GT(first.memoized_blocks, 500u);
        EXPECT_GT(second.memoized_blocks, first.memoized_blocks);
      } else {
        EXPECT_EQ(first.memoized_blocks, 0u);
        EXPECT_EQ(second.memoized_blocks, 0u);
      }
    }
  }
}

}  // namespace
}  // namespace fathom::sim

