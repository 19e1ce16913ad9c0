// sim::TcgTiming, the QEMU engine's charging rules, against the timing model driven one
// instruction at a time in execution order (what sim::Machine's per-instruction mode does).
#include "sim/tcg_timing.h"

#include <gtest/gtest.h>

#include <vector>

#include "fixture_board.h"
#include "sim/instruction_decoder.h"
#include "sim/it_block.h"
#include "sim/system_control.h"
#include "sim/timing/skipped_instruction.h"

namespace fathom::sim {
namespace {

using Bytes = std::vector<uint8_t>;

struct Code {
  uint32_t address;
  Bytes bytes;
};

// Thumb encodings (little-endian halfwords).
const Bytes kMovsR0_1 = {0x01, 0x20};     // movs r0, #1
const Bytes kAddsR1R1R0 = {0x09, 0x18};   // adds r1, r1, r0
const Bytes kLdrR2R3 = {0x1A, 0x68};      // ldr r2, [r3]
const Bytes kStrR2R3_4 = {0x5A, 0x60};    // str r2, [r3, #4]
const Bytes kCmpR0_0 = {0x00, 0x28};      // cmp r0, #0
const Bytes kItEq = {0x08, 0xBF};         // it eq
const Bytes kLdrR1R3 = {0x19, 0x68};      // ldr(eq) r1, [r3]
const Bytes kUdivR0R1R2 = {0xB1, 0xFB, 0xF2, 0xF0};  // udiv r0, r1, r2
const Bytes kBSelf = {0xFE, 0xE7};        // b .

std::unique_ptr<timing::CoreTimingModel> model() {
  auto m = timing::make_timing_model(testing::fixture_board());
  EXPECT_TRUE(m);
  return std::move(*m);
}

// `code` laid out from `start`, contiguous.
std::vector<Code> layout(uint32_t start, const std::vector<Bytes>& instructions) {
  std::vector<Code> out;
  for (const auto& b : instructions) {
    out.push_back({start, b});
    start += static_cast<uint32_t>(b.size());
  }
  return out;
}

TcgTiming::Block* translate(TcgTiming& t, const std::vector<Code>& code) {
  std::vector<TcgTiming::TranslatedInstruction> insns;
  for (const auto& c : code) insns.push_back({c.address, c.bytes});
  return t.translate(insns);
}

// The reference: each executed instruction charged in order, with where it went next;
// `executed[i]` false for one that failed its IT condition, `operands` for a divide.
struct Reference {
  std::unique_ptr<timing::CoreTimingModel> m = model();
  InstructionDecoder decoder;
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  void run(const std::vector<Code>& trace, const std::vector<uint32_t>& next,
           const std::vector<bool>& executed = {},
           const std::vector<std::array<uint32_t, 2>>& operands = {}) {
    for (size_t i = 0; i < trace.size(); ++i) {
      const Instruction insn = decoder.decode(trace[i].address, trace[i].bytes);
      const bool ran = executed.empty() || executed[i];
      if (!operands.empty()) m->set_operand_values(operands[i][0], operands[i][1]);
      cycles += m->cycles(timing::charged_instruction(insn, ran, *m), trace[i].address, next[i]);
      ++instructions;
    }
  }
};

TEST(TcgTiming, ChargesBlocksAsTheModelChargesInstructionsInOrder) {
  TcgTiming t(model(), 0x40000000u, 0);
  const auto a = layout(0x100, {kMovsR0_1, kAddsR1R1R0, kLdrR2R3, kBSelf});
  const auto b = layout(0x200, {kAddsR1R1R0, kStrR2R3_4, kBSelf});
  TcgTiming::Block* ba = translate(t, a);
  TcgTiming::Block* bb = translate(t, b);
  // a, a (its branch taken back to itself), b, a, end.
  t.enter(ba, false);
  t.enter(ba, true);
  t.enter(bb, true);
  t.enter(ba, true);
  t.finish();

  Reference r;
  r.run(a, {0x102, 0x104, 0x106, 0x100});
  r.run(a, {0x102, 0x104, 0x106, 0x200});
  r.run(b, {0x202, 0x204, 0x100});
  r.run(a, {0x102, 0x104, 0x106, 0x108});
  EXPECT_EQ(t.instructions(), r.instructions);
  EXPECT_EQ(t.cycles(), r.cycles);
  EXPECT_EQ(t.stats().unplaced, 0u);
}

TEST(TcgTiming, MemoizedBlocksCostWhatChargingThemCosts) {
  TcgTiming t(model(), 0x40000000u, 0);
  const auto a = layout(0x100, {kMovsR0_1, kLdrR2R3, kAddsR1R1R0, kBSelf});
  TcgTiming::Block* ba = translate(t, a);
  Reference r;
  t.enter(ba, false);
  for (int k = 0; k < 50; ++k) {
    t.enter(ba, true);
    r.run(a, {0x102, 0x104, 0x106, 0x100});
  }
  t.finish();
  r.run(a, {0x102, 0x104, 0x106, 0x108});
  EXPECT_GT(t.stats().memoized, 0u);
  EXPECT_EQ(t.cycles(), r.cycles);
  // The same code translated again (a cache flush) is the same block, memo included.
  EXPECT_EQ(translate(t, a), ba);
}

TEST(TcgTiming, ABlockLeftEarlyIsChargedUpToWhereExecutionWentOn) {
  // QEMU 10 aborts a block at an MMIO access that is not its last instruction, runs the
  // access alone, and goes on with a new block after it: the abandoned rest is never charged.
  TcgTiming t(model(), 0x40000000u, 0);
  const auto a = layout(0x100, {kMovsR0_1, kLdrR2R3, kAddsR1R1R0, kAddsR1R1R0, kBSelf});
  const auto rest = layout(0x104, {kAddsR1R1R0, kAddsR1R1R0, kBSelf});
  TcgTiming::Block* ba = translate(t, a);
  TcgTiming::Block* one_off = translate(t, layout(0x102, {kLdrR2R3}));
  TcgTiming::Block* br = translate(t, rest);
  EXPECT_TRUE(one_off->kinds[0] & TcgTiming::Block::kMemory);
  EXPECT_TRUE(ba->kinds[0] == 0 && ba->kinds[1] == 0);  // only the last and one-off ones
  t.enter(ba, false);
  t.memory(one_off, 0, 0x40000000u, true, 'x');  // the console store, from the one-off block
  t.enter(br, false);                            // a's last instruction never started
  t.finish();
  Reference r;
  r.run(layout(0x100, {kMovsR0_1, kLdrR2R3}), {0x102, 0x104});
  r.run(rest, {0x106, 0x108, 0x10a});
  EXPECT_EQ(t.instructions(), 5u);
  EXPECT_EQ(t.cycles(), r.cycles);
  EXPECT_EQ(t.console_bytes(), 1u);
  EXPECT_EQ(t.stats().early_exits, 1u);
  EXPECT_EQ(t.stats().unplaced, 0u);
}

TEST(TcgTiming, ACycleCounterReadReturnsTheCountBeforeTheReadingInstruction) {
  TcgTiming t(model(), 0x40000000u, 0);
  const auto a = layout(0x100, {kMovsR0_1, kAddsR1R1R0, kLdrR2R3, kAddsR1R1R0, kBSelf});
  TcgTiming::Block* ba = translate(t, a);
  TcgTiming::Block* one_off = translate(t, layout(0x104, {kLdrR2R3}));
  TcgTiming::Block* rest = translate(t, layout(0x106, {kAddsR1R1R0, kBSelf}));
  t.enter(ba, false);
  // The counter does not run until DEMCR.TRCENA and DWT_CTRL.CYCCNTENA are set.
  t.memory(one_off, 0, SystemControl::kCycleCounterAddress, false, 0);
  t.memory(one_off, 0, 0xE000EDFCu, true, 1u << 24);
  t.memory(one_off, 0, 0xE0001000u, true, 1u);
  t.memory(one_off, 0, SystemControl::kCycleCounterAddress, false, 0);
  t.enter(rest, false);
  t.finish();
  ASSERT_EQ(t.probes().size(), 2u);
  EXPECT_EQ(t.probes()[0].cyccnt, 0u);
  EXPECT_EQ(t.probes()[1].cyccnt, 0u);  // started at that very instruction
  EXPECT_EQ(t.probes()[1].instructions, 2u);

  // Enabled earlier (in a block before), a read sees every cycle charged since.
  TcgTiming u(model(), 0x40000000u, 0);
  const auto init = layout(0x80, {kStrR2R3_4, kBSelf});
  TcgTiming::Block* ui = translate(u, init);
  TcgTiming::Block* ua = translate(u, a);
  TcgTiming::Block* uo = translate(u, layout(0x104, {kLdrR2R3}));
  u.enter(ui, false);
  u.memory(ui, 0, 0xE000EDFCu, true, 1u << 24);
  u.memory(ui, 0, 0xE0001000u, true, 1u);  // before the store's own cycles
  u.enter(ua, true);
  u.memory(uo, 0, SystemControl::kCycleCounterAddress, false, 0);
  Reference r;
  r.run(init, {0x82, 0x100});
  r.run(layout(0x100, {kMovsR0_1, kAddsR1R1R0}), {0x102, 0x104});
  ASSERT_EQ(u.probes().size(), 1u);
  EXPECT_EQ(u.probes()[0].cyccnt, r.cycles);
  EXPECT_EQ(u.probes()[0].instructions, 4u);
  EXPECT_EQ(u.stats().unplaced, 0u);
}

TEST(TcgTiming, AStartOutsideTheAbandonedBlockIsUnplaced) {
  TcgTiming t(model(), 0x40000000u, 0);
  TcgTiming::Block* a = translate(t, layout(0x100, {kMovsR0_1, kAddsR1R1R0, kBSelf}));
  TcgTiming::Block* b = translate(t, layout(0x300, {kMovsR0_1, kBSelf}));
  t.enter(a, false);
  t.enter(b, false);  // neither a's last instruction ran nor is b inside a
  EXPECT_EQ(t.stats().unplaced, 1u);
}

TEST(TcgTiming, ItConditionsComeFromTheFlagsAtTheIt) {
  // cmp r0, #0; it eq; ldreq r1, [r3]; adds; b .  — with Z clear the load is skipped.
  const auto a = layout(0x100, {kCmpR0_0, kItEq, kLdrR1R3, kAddsR1R1R0, kBSelf});
  std::vector<uint64_t> totals;
  for (const bool z : {false, true}) {
    TcgTiming t(model(), 0x40000000u, 0);
    TcgTiming::Block* ba = translate(t, a);
    EXPECT_TRUE(ba->kinds[1] & TcgTiming::Block::kFlags);
    EXPECT_TRUE(ba->memoizable && ba->has_it);
    t.enter(ba, false);
    t.flags(ba, 1, z ? 1u << 30 : 0u);
    t.finish();
    Reference r;
    r.run(a, {0x102, 0x104, 0x106, 0x108, 0x10a}, {true, true, z, true, true});
    EXPECT_EQ(t.cycles(), r.cycles) << "Z=" << z;
    EXPECT_EQ(t.stats().unplaced, 0u);
    totals.push_back(t.cycles());
  }
  EXPECT_NE(totals[0], totals[1]);  // the condition changes the cost: the test can tell
}

TEST(TcgTiming, ItBlocksAreMemoizedPerConditionOutcome) {
  // The same IT block, looping, with the condition alternating: each outcome has its own memo
  // entry, and the total is what charging every instruction gives.
  const auto a = layout(0x100, {kCmpR0_0, kItEq, kLdrR1R3, kAddsR1R1R0, kBSelf});
  TcgTiming t(model(), 0x40000000u, 0);
  TcgTiming::Block* ba = translate(t, a);
  Reference r;
  t.enter(ba, false);
  for (int k = 0; k < 40; ++k) {
    const bool z = k % 3 == 0;
    t.flags(ba, 1, z ? 1u << 30 : 0u);
    t.enter(ba, true);
    r.run(a, {0x102, 0x104, 0x106, 0x108, 0x100}, {true, true, z, true, true});
  }
  t.flags(ba, 1, 0);
  t.finish();
  r.run(a, {0x102, 0x104, 0x106, 0x108, 0x10a}, {true, true, false, true, true});
  EXPECT_EQ(t.cycles(), r.cycles);
  EXPECT_GT(t.stats().memoized, 30u);
  EXPECT_EQ(t.stats().unplaced, 0u);
}

TEST(TcgTiming, AnItBlockRunningIntoTheNextBlockIsNotMemoized) {
  // A block ends with the IT (a page boundary); the conditional load is the next block's
  // first instruction. Entered again with other flags, the first block must not restore the
  // flags of its first execution from a memo.
  const auto a = layout(0x100, {kCmpR0_0, kItEq});
  const auto b = layout(0x104, {kLdrR1R3, kBSelf});
  TcgTiming t(model(), 0x40000000u, 0);
  TcgTiming::Block* ba = translate(t, a);
  TcgTiming::Block* bb = translate(t, b);
  EXPECT_TRUE(bb->kinds[0] & TcgTiming::Block::kFlags);
  Reference r;
  t.enter(ba, false);
  for (int k = 0; k < 6; ++k) {
    const bool z = k % 2 == 1;
    t.flags(ba, 1, z ? 1u << 30 : 0u);
    t.enter(bb, true);
    t.flags(bb, 0, z ? 1u << 30 : 0u);  // the rest of the IT reads the flags again
    t.enter(ba, true);
    r.run(a, {0x102, 0x104}, {true, true});
    r.run(b, {0x106, 0x100}, {z, true});
  }
  t.flags(ba, 1, 0);
  t.finish();
  r.run(a, {0x102, 0x104}, {true, true});
  EXPECT_EQ(t.cycles(), r.cycles);
  EXPECT_EQ(t.stats().unplaced, 0u);
}

TEST(TcgTiming, FlagsSetInsideAnItBlockAreReadAgain) {
  // itt eq; cmpeq r0, #0; ldreq r1, [r3]: the second condition follows the cmp's flags.
  const Bytes kItEe = {0x04, 0xBF};  // itt eq (firstcond 0000, mask 0100)
  const auto a = layout(0x100, {kItEe, kCmpR0_0, kLdrR1R3, kBSelf});
  TcgTiming t(model(), 0x40000000u, 0);
  TcgTiming::Block* ba = translate(t, a);
  EXPECT_TRUE(ba->kinds[2] & TcgTiming::Block::kFlags);  // after the flag-setting cmp
  t.enter(ba, false);
  t.flags(ba, 0, 1u << 30);  // Z set at the IT: the cmp runs
  t.flags(ba, 2, 0);         // ... and clears Z: the load is skipped
  t.finish();
  Reference r;
  r.run(a, {0x102, 0x104, 0x106, 0x108}, {true, true, false, true});
  EXPECT_EQ(t.cycles(), r.cycles);
  EXPECT_EQ(t.stats().unplaced, 0u);

  // The same IT block split over two blocks (QEMU ends one at a page boundary, after the cmp):
  // the block translated after the first reads the flags at the load, and the figure is exact
  // (newlib's strcmp in wolfssl-fastmath-newlib has an `itttt eq` across a 1 KiB boundary).
  TcgTiming u(model(), 0x40000000u, 0);
  TcgTiming::Block* first = translate(u, layout(0x100, {kItEe, kCmpR0_0}));
  TcgTiming::Block* second = translate(u, layout(0x104, {kLdrR1R3, kBSelf}));
  EXPECT_TRUE(second->kinds[0] & TcgTiming::Block::kFlags);
  EXPECT_FALSE(second->kinds[1] & TcgTiming::Block::kFlags);
  u.enter(first, false);
  u.flags(first, 0, 1u << 30);
  u.enter(second, true);
  u.flags(second, 0, 0);
  u.finish();
  EXPECT_EQ(u.cycles(), r.cycles);
  EXPECT_EQ(u.stats().unplaced, 0u);

  // Translated before the block that ends inside the IT (reached by another path first), the
  // second block cannot know: nothing read the flags after the cmp, so the figure is flagged.
  TcgTiming w(model(), 0x40000000u, 0);
  TcgTiming::Block* early = translate(w, layout(0x104, {kLdrR1R3, kBSelf}));
  TcgTiming::Block* late = translate(w, layout(0x100, {kItEe, kCmpR0_0}));
  EXPECT_FALSE(early->kinds[0] & TcgTiming::Block::kFlags);
  w.enter(late, false);
  w.flags(late, 0, 1u << 30);
  w.enter(early, true);
  w.finish();
  EXPECT_EQ(w.stats().unplaced, 1u);
}

TEST(TcgTiming, ABlockRestartedAtItsFirstInstructionIsPlaced) {
  TcgTiming t(model(), 0x40000000u, 0);
  TcgTiming::Block* a = translate(t, layout(0x100, {kLdrR2R3, kAddsR1R1R0, kBSelf}));
  TcgTiming::Block* one = translate(t, layout(0x100, {kLdrR2R3}));
  t.enter(a, false);
  t.enter(one, false);  // QEMU ran the first instruction again on its own
  t.finish();
  EXPECT_EQ(t.stats().unplaced, 0u);
  EXPECT_EQ(t.instructions(), 1u);
}

// Every instruction an observer was told about, flattened from runs.
struct Recorder final : ExecutionObserver {
  struct Seen {
    uint32_t pc, next, cycles;
    bool executed;
    uint32_t sp;
    bool operator==(const Seen&) const = default;
  };
  std::vector<Seen> seen;
  size_t runs = 0;
  void on_instruction(const Instruction&, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override {
    seen.push_back({pc, next, cycles, executed, sp});
  }
  void on_instructions(const InstructionRun& run) override {
    ++runs;
    ExecutionObserver::on_instructions(run);
  }
};

TEST(TcgTiming, AnObserverSeesEveryInstructionWithItsCostMemoizedOrNot) {
  // A loop of an IT block (alternating outcome), a block that pushes (SP read after it), and
  // an early exit: the observer sees exactly the instructions the reference charges, in order,
  // with their cycles, the skipped load as not executed, and SP as read after SP writers.
  const Bytes kPush = {0x10, 0xB5};  // push {r4, lr}
  const auto a = layout(0x100, {kCmpR0_0, kItEq, kLdrR1R3, kAddsR1R1R0, kBSelf});
  const auto p = layout(0x200, {kPush, kMovsR0_1, kBSelf});
  TcgTiming t(model(), 0x40000000u, 0);
  Recorder rec;
  uint32_t sp = 0x20001000u;
  int sp_reads = 0;
  t.set_observer(&rec, [&] { ++sp_reads; return sp; });
  TcgTiming::Block* ba = translate(t, a);
  TcgTiming::Block* bp = translate(t, p);
  EXPECT_TRUE(bp->writes_sp);
  EXPECT_FALSE(ba->writes_sp);
  Reference r;
  std::vector<Recorder::Seen> expected;
  auto expect = [&](const std::vector<Code>& code, const std::vector<uint32_t>& next,
                    const std::vector<bool>& executed, uint32_t block_sp) {
    for (size_t i = 0; i < code.size(); ++i) {
      const uint64_t before = r.cycles;
      r.run({code[i]}, {next[i]}, {executed[i]});
      expected.push_back({code[i].address, next[i], static_cast<uint32_t>(r.cycles - before),
                          executed[i], block_sp});
    }
  };
  t.enter(ba, false);
  for (int k = 0; k < 12; ++k) {
    const bool z = k % 2 == 0;
    t.flags(ba, 1, z ? 1u << 30 : 0u);
    t.enter(k == 11 ? bp : ba, true);
    expect(a, {0x102, 0x104, 0x106, 0x108, k == 11 ? 0x200u : 0x100u},
           {true, true, z, true, true}, 0x20001000u);
  }
  sp = 0x20000ff8u;  // after the push
  t.finish();  // p runs to its end; no SP read at exit
  expect(p, {0x202, 0x204, 0x206}, {true, true, true}, 0x20001000u);
  EXPECT_EQ(rec.seen, expected);
  EXPECT_GT(t.stats().memoized, 5u);  // memo hits were replayed, not skipped
  EXPECT_GT(rec.runs, 0u);
  EXPECT_EQ(sp_reads, 1);  // the first block only: p's end is the exit
}

TEST(TcgTiming, DivideCostsFollowTheOperandsReadBeforeIt) {
  const auto a = layout(0x100, {kMovsR0_1, kUdivR0R1R2, kBSelf});
  std::vector<uint64_t> totals;
  for (const std::array<uint32_t, 2> v : {std::array<uint32_t, 2>{7, 3},
                                          std::array<uint32_t, 2>{0xFFFFFFFFu, 1}}) {
    TcgTiming t(model(), 0x40000000u, 0);
    TcgTiming::Block* ba = translate(t, a);
    EXPECT_TRUE(ba->kinds[1] & TcgTiming::Block::kOperands);
    t.enter(ba, false);
    t.operands(ba, 1, v[0], v[1]);
    t.finish();
    Reference r;
    r.run(a, {0x102, 0x106, 0x108}, {}, {{0, 0}, v, {0, 0}});
    EXPECT_EQ(t.cycles(), r.cycles);
    totals.push_back(t.cycles());
  }
  EXPECT_NE(totals[0], totals[1]);
  // Without the values (a callback that did not run) the figure is flagged, not guessed.
  TcgTiming t(model(), 0x40000000u, 0);
  t.enter(translate(t, a), false);
  t.finish();
  EXPECT_EQ(t.stats().unplaced, 1u);
}

}  // namespace
}  // namespace fathom::sim
