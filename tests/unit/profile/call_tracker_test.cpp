// profile::CallTracker on the simulator's fixture firmware (mode 8: recursion, a tail call, a
// call through a pointer, a function that never returns): the call tree it builds from what
// executes, and that watching changes no count.
#include "profile/call_tracker.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>

#include "elf/elf_image.h"
#include "sim/machine.h"
#include "../sim/fixture_board.h"
#include "one_at_a_time.h"
#include "../test_paths.h"

namespace fathom::profile {
namespace {

constexpr uint8_t kCallsMode = 8;
constexpr uint8_t kSvcMode = 10;  // SVCs whose handler calls svc_service -> svc_step

class CallTrackerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
    if (dir.empty()) GTEST_SKIP() << "no Arm toolchain at configure time: no test firmware";
    auto img = elf::ElfImage::load(dir + "/sim_fixture.elf");
    ASSERT_TRUE(img) << img.error().message;
    image_ = std::make_unique<elf::ElfImage>(std::move(*img));
  }

  sim::RunOutcome run(sim::HookMode mode, sim::ExecutionObserver* observer,
                      uint8_t fixture_mode = kCallsMode) {
    auto m = sim::Machine::create(fathom::testing::fixture_board(), mode);
    EXPECT_TRUE(m);
    EXPECT_TRUE((*m)->load(*image_));
    const elf::Symbol* s = image_->find_symbol("fixture_mode");
    EXPECT_NE(s, nullptr);
    EXPECT_TRUE((*m)->write_memory(s->address, {fixture_mode, 0, 0, 0}));
    (*m)->set_observer(observer);
    return (*m)->run(5'000'000);
  }

  TrackerOptions options() const {
    TrackerOptions o;
    for (const auto& s : image_->symbols())
      if (s.is_function) o.function_entries.push_back(s.address);
    o.spans.push_back({"call_patterns", image_->find_symbol("call_patterns")->address});
    return o;
  }

  uint32_t frame_of(const ProfileSet& set, const std::string& name) {
    const uint32_t address = image_->find_symbol(name)->address;
    for (uint32_t i = 0; i < set.frames.size(); ++i)
      if (set.frames[i].address == address) return i;
    ADD_FAILURE() << name << " has no frame";
    return UINT32_MAX;
  }

  std::unique_ptr<elf::ElfImage> image_;
};

TEST_F(CallTrackerTest, WatchingChangesNoCount) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    CallTracker tracker(options());
    const sim::RunOutcome plain = run(mode, nullptr);
    const sim::RunOutcome watched = run(mode, &tracker);
    EXPECT_TRUE(plain.exited);
    EXPECT_EQ(plain.exit_code, 9);
    EXPECT_EQ(plain.cycles, watched.cycles);
    EXPECT_EQ(plain.instructions, watched.instructions);
    EXPECT_EQ(plain.console, watched.console);
  }
}

TEST_F(CallTrackerTest, TotalsAreTheRunsCountsExactly) {
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    CallTracker tracker(options());
    const sim::RunOutcome out = run(mode, &tracker);
    const ProfileSet set = tracker.finish();
    ASSERT_EQ(set.profiles.size(), 2u);  // whole run, call_patterns
    const Profile& whole = set.profiles[0];
    EXPECT_EQ(whole.total_cycles, out.cycles);
    EXPECT_EQ(whole.total_instructions, out.instructions);
    EXPECT_EQ(whole.nodes[0].inclusive_cycles, out.cycles);
    uint64_t exclusive = 0, address_cycles = 0;
    for (const auto& n : whole.nodes) exclusive += n.exclusive_cycles;
    for (const auto& a : whole.addresses) address_cycles += a.cycles;
    EXPECT_EQ(exclusive, out.cycles);
    EXPECT_EQ(address_cycles, out.cycles);
    // Every node's inclusive cost is its own plus its children's.
    for (const auto& n : whole.nodes) {
      uint64_t children = 0;
      for (uint32_t c : n.children) children += whole.nodes[c].inclusive_cycles;
      EXPECT_EQ(n.inclusive_cycles, n.exclusive_cycles + children) << set.frames[n.frame].name;
    }
  }
}

TEST_F(CallTrackerTest, RecursionTailCallPointerCallAndNoReturn) {
  CallTracker tracker(options());
  run(sim::HookMode::kBlock, &tracker);
  const ProfileSet set = tracker.finish();
  const Profile& span = set.profiles[1];
  ASSERT_EQ(span.name, "call_patterns");
  const uint32_t patterns = frame_of(set, "call_patterns"), fib = frame_of(set, "fib"),
                 leaf = frame_of(set, "leaf_add"), tail = frame_of(set, "tail_caller"),
                 stop = frame_of(set, "stop_in_callee");
  EXPECT_EQ(span.nodes[0].frame, patterns);
  EXPECT_EQ(span.nodes[0].calls, 1u);
  std::map<uint32_t, uint64_t> calls;              // frame -> calls over all paths
  std::map<uint32_t, std::vector<uint32_t>> parents;  // frame -> parent frames
  uint32_t deepest_fib = 0;
  for (const auto& n : span.nodes) {
    calls[n.frame] += n.calls;
    if (n.parent >= 0) parents[n.frame].push_back(span.nodes[static_cast<size_t>(n.parent)].frame);
    if (n.frame == fib) {
      uint32_t depth = 0;
      for (int32_t a = n.parent; a >= 0; a = span.nodes[static_cast<size_t>(a)].parent) ++depth;
      deepest_fib = std::max(deepest_fib, depth);
    }
  }
  EXPECT_EQ(calls[fib], 177u);  // fib(10) makes 2 * F(11) - 1 calls
  EXPECT_EQ(deepest_fib, 10u);  // fib(1) under fib(2..10) under call_patterns
  // The tail call: leaf_add returns straight to call_patterns, so it sits under it — twice,
  // once through tail_caller's branch and once through the pointer.
  EXPECT_EQ(calls[tail], 1u);
  EXPECT_EQ(calls[leaf], 2u);
  EXPECT_EQ(parents[leaf], std::vector<uint32_t>{patterns});
  // stop_in_callee never returned; the run ended inside it and it still has its costs.
  EXPECT_EQ(calls[stop], 1u);
  // The trace of the first execution nests and spans the whole profile.
  ASSERT_FALSE(span.events.empty());
  std::vector<uint32_t> open;
  uint64_t last = 0;
  for (const auto& e : span.events) {
    EXPECT_GE(e.at_cycles, last);
    last = e.at_cycles;
    if (e.kind == TraceEvent::Kind::kEnter) {
      open.push_back(e.frame);
    } else {
      ASSERT_FALSE(open.empty());
      EXPECT_EQ(open.back(), e.frame);
      open.pop_back();
    }
  }
  EXPECT_TRUE(open.empty());
  EXPECT_EQ(span.events.back().at_cycles, span.total_cycles);
}

TEST_F(CallTrackerTest, ATraceOverTheEventLimitIsDroppedWholeAndTheTreeStaysComplete) {
  TrackerOptions o = options();
  const ProfileSet full = [&] {
    CallTracker tracker(o);
    run(sim::HookMode::kBlock, &tracker);
    return tracker.finish();
  }();
  ASSERT_FALSE(full.profiles[1].trace_truncated);
  ASSERT_GT(full.profiles[1].events.size(), 10u);
  o.event_limit = 10;
  CallTracker tracker(o);
  run(sim::HookMode::kBlock, &tracker);
  const ProfileSet set = tracker.finish();
  const Profile& span = set.profiles[1];
  EXPECT_TRUE(span.trace_truncated);
  EXPECT_EQ(span.trace_event_limit, 10u);
  // No part of a trace: a partial one would charge the calls it leaves out to their callers.
  EXPECT_TRUE(span.events.empty());
  // The call tree itself is complete regardless: the same as with the whole trace.
  uint64_t fib_calls = 0;
  for (const auto& n : span.nodes)
    if (set.frames[n.frame].address == image_->find_symbol("fib")->address) fib_calls += n.calls;
  EXPECT_EQ(fib_calls, 177u);
  ASSERT_EQ(span.nodes.size(), full.profiles[1].nodes.size());
  for (size_t i = 0; i < span.nodes.size(); ++i) {
    EXPECT_EQ(span.nodes[i].exclusive_cycles, full.profiles[1].nodes[i].exclusive_cycles) << i;
    EXPECT_EQ(span.nodes[i].inclusive_cycles, full.profiles[1].nodes[i].inclusive_cycles) << i;
  }
  EXPECT_EQ(span.total_cycles, full.profiles[1].total_cycles);
}

TEST_F(CallTrackerTest, CallsFromAnExcludedCallerAreNotExecutionsOfTheSpan) {
  // leaf_add runs twice, both times with call_patterns as its caller (once after
  // tail_caller's tail call replaced its frame, once through a pointer).
  TrackerOptions o = options();
  o.spans = {{"leaf_add", image_->find_symbol("leaf_add")->address}};
  const ProfileSet counted = [&] {
    CallTracker tracker(o);
    run(sim::HookMode::kBlock, &tracker);
    return tracker.finish();
  }();
  ASSERT_EQ(counted.profiles.size(), 2u);
  EXPECT_EQ(counted.profiles[1].execution_cycles.size(), 2u);

  o.excluded_callers = {image_->find_symbol("call_patterns")->address | 1u};  // Thumb bit ignored
  CallTracker tracker(o);
  run(sim::HookMode::kBlock, &tracker);
  const ProfileSet set = tracker.finish();
  ASSERT_EQ(set.profiles.size(), 1u);  // the whole run only: leaf_add never ran as the span
  // The whole run still has both calls, at the same cost.
  uint64_t calls = 0;
  for (const auto& n : set.profiles[0].nodes)
    if (set.frames[n.frame].address == image_->find_symbol("leaf_add")->address) calls += n.calls;
  EXPECT_EQ(calls, 2u);
  EXPECT_EQ(set.profiles[0].total_cycles, counted.profiles[0].total_cycles);
}

TEST_F(CallTrackerTest, AnOperationThatEndsInATailCallKeepsItsCallee) {
  // tail_caller is `b leaf_add` after its own work: profiled as an operation, its profile must
  // hold leaf_add under it and the whole cost of the call, not just the instructions before
  // the branch (an op's run function that tail-calls the library is the usual shape at -O2).
  TrackerOptions o = options();
  o.spans = {{"tail_caller", image_->find_symbol("tail_caller")->address}};
  CallTracker tracker(o);
  run(sim::HookMode::kBlock, &tracker);
  const ProfileSet set = tracker.finish();
  ASSERT_EQ(set.profiles.size(), 2u);
  const Profile& span = set.profiles[1];
  ASSERT_GE(span.nodes.size(), 2u);
  EXPECT_EQ(span.nodes[0].frame, frame_of(set, "tail_caller"));
  ASSERT_EQ(span.nodes[0].children.size(), 1u);
  const CallNode& callee = span.nodes[span.nodes[0].children[0]];
  EXPECT_EQ(callee.frame, frame_of(set, "leaf_add"));
  EXPECT_EQ(callee.calls, 1u);
  EXPECT_GT(callee.exclusive_cycles, 0u);
  EXPECT_EQ(span.total_cycles, span.nodes[0].inclusive_cycles);
  EXPECT_EQ(span.nodes[0].inclusive_cycles,
            span.nodes[0].exclusive_cycles + callee.inclusive_cycles);
  // In the whole-run tree the same call still ends at call_patterns' return address: the
  // next call (through the pointer) is a sibling of tail_caller, not nested in it.
  const Profile& whole = set.profiles[0];
  const uint32_t patterns = frame_of(set, "call_patterns");
  for (const auto& n : whole.nodes) {
    if (n.frame == frame_of(set, "stop_in_callee")) {
      EXPECT_EQ(whole.nodes[static_cast<size_t>(n.parent)].frame, patterns);
    }
  }
}

TEST_F(CallTrackerTest, CallTreeOnlyGivesTheSameTreeWithoutTheDetail) {
  CallTracker full(options());
  run(sim::HookMode::kBlock, &full);
  TrackerOptions o = options();
  o.call_tree_only = true;
  CallTracker lean(o);
  run(sim::HookMode::kBlock, &lean);
  const ProfileSet a = full.finish(), b = lean.finish();
  ASSERT_EQ(a.profiles.size(), b.profiles.size());
  for (size_t i = 0; i < a.profiles.size(); ++i) {
    const Profile &pa = a.profiles[i], &pb = b.profiles[i];
    EXPECT_EQ(pa.total_cycles, pb.total_cycles);
    ASSERT_EQ(pa.nodes.size(), pb.nodes.size());
    for (size_t n = 0; n < pa.nodes.size(); ++n) {
      EXPECT_EQ(pa.nodes[n].frame, pb.nodes[n].frame);
      EXPECT_EQ(pa.nodes[n].calls, pb.nodes[n].calls);
      EXPECT_EQ(pa.nodes[n].inclusive_cycles, pb.nodes[n].inclusive_cycles);
      EXPECT_EQ(pa.nodes[n].exclusive_cycles, pb.nodes[n].exclusive_cycles);
    }
    EXPECT_FALSE(pa.addresses.empty());
    EXPECT_TRUE(pb.addresses.empty());
    EXPECT_TRUE(pb.node_addresses.empty());
    EXPECT_TRUE(pb.edges.empty());
    EXPECT_TRUE(pb.events.empty());
  }
}

TEST_F(CallTrackerTest, RunsGiveTheProfileOfSingleInstructions) {
  // The tracker's per-run path (CallTracker::on_instructions) against its per-instruction one,
  // on the same block-mode execution: every node, address, edge and trace event equal.
  CallTracker by_run(options()), single(options());
  fathom::testing::OneAtATime forward(single);
  run(sim::HookMode::kBlock, &by_run);
  const sim::RunOutcome outcome = run(sim::HookMode::kBlock, &forward);
  EXPECT_EQ(forward.instructions, outcome.instructions);
  const ProfileSet a = by_run.finish(), b = single.finish();
  ASSERT_EQ(a.profiles.size(), b.profiles.size());
  ASSERT_EQ(a.frames.size(), b.frames.size());
  for (size_t i = 0; i < a.profiles.size(); ++i) {
    const Profile &pa = a.profiles[i], &pb = b.profiles[i];
    EXPECT_EQ(pa.total_cycles, pb.total_cycles);
    EXPECT_EQ(pa.total_instructions, pb.total_instructions);
    EXPECT_EQ(pa.peak_stack_bytes, pb.peak_stack_bytes);
    EXPECT_EQ(pa.execution_cycles, pb.execution_cycles);
    ASSERT_EQ(pa.nodes.size(), pb.nodes.size());
    for (size_t n = 0; n < pa.nodes.size(); ++n) {
      EXPECT_EQ(pa.nodes[n].frame, pb.nodes[n].frame);
      EXPECT_EQ(pa.nodes[n].parent, pb.nodes[n].parent);
      EXPECT_EQ(pa.nodes[n].calls, pb.nodes[n].calls);
      EXPECT_EQ(pa.nodes[n].inclusive_cycles, pb.nodes[n].inclusive_cycles);
      EXPECT_EQ(pa.nodes[n].exclusive_cycles, pb.nodes[n].exclusive_cycles);
      EXPECT_EQ(pa.nodes[n].inclusive_instructions, pb.nodes[n].inclusive_instructions);
      EXPECT_EQ(pa.nodes[n].exclusive_instructions, pb.nodes[n].exclusive_instructions);
    }
    ASSERT_EQ(pa.addresses.size(), pb.addresses.size());
    for (size_t n = 0; n < pa.addresses.size(); ++n) {
      EXPECT_EQ(pa.addresses[n].address, pb.addresses[n].address);
      EXPECT_EQ(pa.addresses[n].cycles, pb.addresses[n].cycles);
      EXPECT_EQ(pa.addresses[n].instructions, pb.addresses[n].instructions);
    }
    ASSERT_EQ(pa.node_addresses.size(), pb.node_addresses.size());
    for (size_t n = 0; n < pa.node_addresses.size(); ++n) {
      EXPECT_EQ(pa.node_addresses[n].node, pb.node_addresses[n].node);
      EXPECT_EQ(pa.node_addresses[n].address, pb.node_addresses[n].address);
      EXPECT_EQ(pa.node_addresses[n].cycles, pb.node_addresses[n].cycles);
    }
    ASSERT_EQ(pa.edges.size(), pb.edges.size());
    for (size_t n = 0; n < pa.edges.size(); ++n) {
      EXPECT_EQ(pa.edges[n].call_address, pb.edges[n].call_address);
      EXPECT_EQ(pa.edges[n].inclusive_cycles, pb.edges[n].inclusive_cycles);
      EXPECT_EQ(pa.edges[n].calls, pb.edges[n].calls);
    }
    ASSERT_EQ(pa.events.size(), pb.events.size());
    for (size_t n = 0; n < pa.events.size(); ++n) {
      EXPECT_EQ(pa.events[n].frame, pb.events[n].frame);
      EXPECT_EQ(pa.events[n].at_cycles, pb.events[n].at_cycles);
      EXPECT_EQ(pa.events[n].stack_bytes, pb.events[n].stack_bytes);
    }
  }
}

TEST_F(CallTrackerTest, AnSvcHandlerNestsUnderTheInterruptedFunctionWithExactTotals) {
  TrackerOptions o = options();
  o.spans = {{"svc_caller", image_->find_symbol("svc_caller")->address}};
  for (auto mode : {sim::HookMode::kBlock, sim::HookMode::kPerInstruction}) {
    SCOPED_TRACE(static_cast<int>(mode));
    CallTracker tracker(o);
    const sim::RunOutcome out = run(mode, &tracker, kSvcMode);
    ASSERT_TRUE(out.exited) << out.console;
    EXPECT_EQ(out.exit_code, 10);
    const ProfileSet set = tracker.finish();
    ASSERT_EQ(set.profiles.size(), 2u);
    const uint32_t handler = frame_of(set, "SVC_Handler"), service = frame_of(set, "svc_service"),
                   step = frame_of(set, "svc_step"), caller = frame_of(set, "svc_caller"),
                   measure = frame_of(set, "measure_svc");
    EXPECT_TRUE(set.frames[handler].exception_handler);
    EXPECT_FALSE(set.frames[service].exception_handler);

    // The whole run: every cycle, the latencies included, is somebody's self cost.
    const Profile& whole = set.profiles[0];
    EXPECT_EQ(whole.total_cycles, out.cycles);
    EXPECT_EQ(whole.total_instructions, out.instructions);
    EXPECT_EQ(whole.nodes[0].inclusive_cycles, out.cycles);
    uint64_t exclusive = 0, address_cycles = 0;
    for (const auto& n : whole.nodes) {
      exclusive += n.exclusive_cycles;
      uint64_t children = 0;
      for (uint32_t c : n.children) children += whole.nodes[c].inclusive_cycles;
      EXPECT_EQ(n.inclusive_cycles, n.exclusive_cycles + children) << set.frames[n.frame].name;
    }
    for (const auto& a : whole.addresses) address_cycles += a.cycles;
    EXPECT_EQ(exclusive, out.cycles);
    EXPECT_EQ(address_cycles, out.cycles);
    // measure_svc's one SVC: the handler under it, entered once, returning at once.
    uint64_t handler_calls_under_measure = 0;
    for (const auto& n : whole.nodes)
      if (n.frame == handler && n.parent >= 0 &&
          whole.nodes[static_cast<size_t>(n.parent)].frame == measure) {
        handler_calls_under_measure += n.calls;
        EXPECT_TRUE(n.children.empty());
        // CBNZ 1 + BX LR 3 on the M33 model, plus 12 entry and 10 return cycles.
        EXPECT_EQ(n.inclusive_cycles, 12u + 1u + 3u + 10u);
      }
    EXPECT_EQ(handler_calls_under_measure, 1u);

    // The operation svc_caller: SVC_Handler under it (3 entries), svc_service under the
    // handler, svc_step under that, and the operation's total is its root's inclusive cost.
    const Profile& span = set.profiles[1];
    ASSERT_EQ(span.name, "svc_caller");
    EXPECT_EQ(span.nodes[0].frame, caller);
    EXPECT_EQ(span.total_cycles, span.nodes[0].inclusive_cycles);
    ASSERT_EQ(span.nodes[0].children.size(), 1u);
    const CallNode& h = span.nodes[span.nodes[0].children[0]];
    EXPECT_EQ(h.frame, handler);
    EXPECT_EQ(h.calls, 3u);
    EXPECT_GE(h.exclusive_cycles, 3u * (12u + 10u));
    ASSERT_EQ(h.children.size(), 1u);
    const CallNode& svc = span.nodes[h.children[0]];
    EXPECT_EQ(svc.frame, service);
    EXPECT_EQ(svc.calls, 3u);
    ASSERT_EQ(svc.children.size(), 1u);
    EXPECT_EQ(span.nodes[svc.children[0]].frame, step);
    EXPECT_EQ(span.nodes[svc.children[0]].calls, 3u);
    // The trace nests: every handler entry is left before svc_caller goes on.
    int depth = 0;
    for (const auto& e : span.events) {
      depth += e.kind == TraceEvent::Kind::kEnter ? 1 : -1;
      EXPECT_GE(depth, 0);
    }
    EXPECT_EQ(depth, 0);
    EXPECT_EQ(span.events.size(), 2u * (1u + 3u * 3u));
  }
}

}  // namespace
}  // namespace fathom::profile
