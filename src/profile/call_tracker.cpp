#include "profile/call_tracker.h"

#include <fmt/core.h>

#include <algorithm>
#include <tuple>

namespace fathom::profile {
namespace {

constexpr sim::RegMask kLr = 1u << 14;

bool is_call(const sim::Instruction& insn) {
  return insn.cls == sim::InstrClass::kBranch && (insn.regs_written & kLr) != 0;
}

// Register and loaded branches can return; an immediate branch (B label) never does.
bool may_return(const sim::Instruction& insn) {
  return insn.writes_pc && insn.branch_target != sim::BranchTarget::kImmediate;
}

}  // namespace

uint32_t CallTracker::Tree::node(int32_t parent, uint32_t frame) {
  const uint64_t key = (static_cast<uint64_t>(static_cast<uint32_t>(parent)) << 32) | frame;
  CachedNode& cached =
      node_cache[(static_cast<uint32_t>(parent) * 0x9E3779B1u ^ frame) & (kNodeCacheSize - 1)];
  if (cached.key == key) return cached.node;
  auto [it, inserted] = child_index.try_emplace(key, static_cast<uint32_t>(profile.nodes.size()));
  cached = {key, it->second};
  if (inserted) {
    CallNode n;
    n.frame = frame;
    n.parent = parent;
    profile.nodes.push_back(n);
    if (parent >= 0) profile.nodes[static_cast<size_t>(parent)].children.push_back(it->second);
  }
  return it->second;
}

CallTracker::CallTracker(TrackerOptions options) : options_(std::move(options)) {
  if (!options_.function_entries.empty()) {
    const auto [low, high] = std::minmax_element(options_.function_entries.begin(),
                                                 options_.function_entries.end());
    entries_origin_ = *low & ~1u;
    entries_.assign(((*high & ~1u) - entries_origin_) / 2 + 1, false);
    for (uint32_t e : options_.function_entries) entries_[((e & ~1u) - entries_origin_) / 2] = true;
  }
  for (uint32_t caller : options_.excluded_callers) excluded_callers_.insert(caller & ~1u);
  whole_.profile.name = "whole run";
  for (size_t i = 0; i < options_.spans.size(); ++i) {
    span_by_entry_.emplace(options_.spans[i].entry & ~1u, i);
    spans_.emplace_back();
    spans_.back().profile.name = options_.spans[i].name;
  }
}

uint32_t CallTracker::frame_for(uint32_t function) {
  CachedFrame& cached = frame_cache_[(function >> 1) & (kFrameCacheSize - 1)];
  if (cached.function == function) return cached.frame;
  auto [it, inserted] = frame_index_.try_emplace(function, static_cast<uint32_t>(frames_.size()));
  if (inserted) frames_.push_back({fmt::format("{:#010x}", function), "", 0, function});
  cached = {function, it->second};
  return it->second;
}

void CallTracker::push(uint32_t function, uint32_t return_address, uint32_t call_address,
                       uint32_t sp) {
  StackFrame f;
  f.frame = frame_for(function);
  f.function = function;
  f.return_address = return_address;
  f.call_address = call_address;
  f.caller_frame = stack_.empty() ? f.frame : stack_.back().frame;
  f.entry_cycles = now_cycles_;
  f.entry_instructions = now_instructions_;
  f.whole_node = static_cast<int32_t>(
      whole_.node(stack_.empty() ? -1 : stack_.back().whole_node, f.frame));
  ++whole_.profile.nodes[static_cast<size_t>(f.whole_node)].calls;

  if (active_span_ < 0 && !stack_.empty() && !excluded_callers_.count(stack_.back().function)) {
    if (auto s = span_by_entry_.find(function); s != span_by_entry_.end()) {
      active_span_ = static_cast<int32_t>(s->second);
      span_base_ = stack_.size();
      Tree& t = spans_[s->second];
      tracing_ = t.profile.nodes.empty() && !options_.call_tree_only;  // the first execution
      if (tracing_) t.profile.start_cycles = now_cycles_;
      span_start_cycles_ = t.profile.start_cycles;
      span_lowest_sp_ = sp;
    }
  }
  if (active_span_ >= 0) {
    Tree& t = spans_[static_cast<size_t>(active_span_)];
    const int32_t parent = stack_.size() > span_base_ ? stack_.back().span_node : -1;
    f.span_node = static_cast<int32_t>(t.node(parent, f.frame));
    ++t.profile.nodes[static_cast<size_t>(f.span_node)].calls;
    if (tracing_) {
      if (t.profile.events.size() >= options_.event_limit) {
        // Too long to trace: drop the trace whole rather than keep a part that would charge
        // the calls it leaves out to their callers.
        tracing_ = false;
        t.profile.events.clear();
        t.profile.events.shrink_to_fit();
        t.profile.trace_truncated = true;
        t.profile.trace_event_limit = options_.event_limit;
        for (size_t k = span_base_; k < stack_.size(); ++k) stack_[k].traced = false;
      } else {
        f.traced = true;
        t.profile.events.push_back({TraceEvent::Kind::kEnter, f.frame,
                                    now_cycles_ - span_start_cycles_, initial_sp_ - sp});
      }
    }
  }
  stack_.push_back(f);
}

void CallTracker::leave(Tree& tree, const StackFrame& f, int32_t node, uint64_t cycles,
                        uint64_t instructions) {
  CallNode& n = tree.profile.nodes[static_cast<size_t>(node)];
  n.inclusive_cycles += cycles;
  n.inclusive_instructions += instructions;
  if (f.return_address != 0 && !options_.call_tree_only) {
    Costs& e = tree.edges[{f.caller_frame, f.frame, f.call_address}];
    e.cycles += cycles;
    e.instructions += instructions;
    ++e.count;
  }
}

void CallTracker::pop(uint32_t sp) {
  const StackFrame f = stack_.back();
  stack_.pop_back();
  const uint64_t cycles = now_cycles_ - f.entry_cycles;
  const uint64_t instructions = now_instructions_ - f.entry_instructions;
  leave(whole_, f, f.whole_node, cycles, instructions);
  if (active_span_ >= 0 && f.span_node >= 0) {
    Tree& t = spans_[static_cast<size_t>(active_span_)];
    // A span's root frame has no caller inside the span: no edge for it.
    StackFrame g = f;
    if (stack_.size() == span_base_) g.return_address = 0;
    leave(t, g, f.span_node, cycles, instructions);
    if (f.traced)
      t.profile.events.push_back({TraceEvent::Kind::kLeave, f.frame,
                                  now_cycles_ - span_start_cycles_, initial_sp_ - sp});
    if (stack_.size() == span_base_) {
      t.profile.total_cycles += cycles;
      t.profile.total_instructions += instructions;
      t.profile.execution_cycles.push_back(cycles);
      t.profile.execution_instructions.push_back(instructions);
      t.profile.execution_peak_stack_bytes.push_back(initial_sp_ - span_lowest_sp_);
      t.profile.peak_stack_bytes =
          std::max(t.profile.peak_stack_bytes, initial_sp_ - span_lowest_sp_);
      active_span_ = -1;
      tracing_ = false;
    }
  }
}

void CallTracker::on_snapshot() { snapshot_stack_ = stack_; }

void CallTracker::on_restore() {
  size_t common = 0;
  while (common < stack_.size() && common < snapshot_stack_.size() &&
         stack_[common].function == snapshot_stack_[common].function &&
         stack_[common].return_address == snapshot_stack_[common].return_address)
    ++common;
  // Restores happen between operations (no span is open); a frame's SP only matters to a
  // span's trace events.
  while (stack_.size() > common) pop(initial_sp_);
  for (size_t i = common; i < snapshot_stack_.size(); ++i) {
    const StackFrame& f = snapshot_stack_[i];
    push(f.function, f.return_address, f.call_address, initial_sp_);
  }
}

void CallTracker::charge(const uint32_t* addresses, const uint32_t* cycles, size_t count,
                         uint64_t total_cycles, uint32_t sp) {
  if (stack_.empty()) {
    initial_sp_ = sp;
    push(addresses[0], 0, 0, sp);
  }
  lowest_sp_ = std::min(lowest_sp_, sp);
  if (active_span_ >= 0) span_lowest_sp_ = std::min(span_lowest_sp_, sp);
  // The costs belong to the function on top of the shadow stack (only the last instruction of
  // a run may leave it).
  const StackFrame& top = stack_.back();
  CallNode& wn = whole_.profile.nodes[static_cast<size_t>(top.whole_node)];
  wn.exclusive_cycles += total_cycles;
  wn.exclusive_instructions += count;
  const bool per_address = !options_.call_tree_only;
  // The whole run is kept per address only (per node it would cost a lookup table as big as
  // the run's code times its call paths); operations are kept per node and address.
  auto add = [&](Tree& t, uint32_t node) {
    for (size_t i = 0; i < count; ++i) {
      Costs& a = t.address_costs(node, addresses[i]);
      a.cycles += cycles[i];
      ++a.instructions;
    }
  };
  // What an operation's tree keeps per address reaches the whole run's at `finish`, so it is
  // charged once.
  if (active_span_ >= 0 && top.span_node >= 0) {
    Tree& t = spans_[static_cast<size_t>(active_span_)];
    CallNode& sn = t.profile.nodes[static_cast<size_t>(top.span_node)];
    sn.exclusive_cycles += total_cycles;
    sn.exclusive_instructions += count;
    if (per_address) add(t, static_cast<uint32_t>(top.span_node));
  } else if (per_address) {
    add(whole_, 0);
  }
  now_cycles_ += total_cycles;
  now_instructions_ += count;
}

void CallTracker::on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next,
                                 uint32_t cycles, bool executed, uint32_t sp) {
  charge(&pc, &cycles, 1, cycles, sp);
  if (!executed || next == pc + insn.size_bytes) return;
  on_taken_branch(insn, pc, next, sp);
}

void CallTracker::on_instructions(const sim::ExecutionObserver::InstructionRun& run) {
  charge(run.addresses, run.cycles, run.count, run.total_cycles, run.sp);
  if (run.next == run.fallthrough) return;
  const size_t last = run.count - 1;
  const sim::Instruction& insn = *run.instructions[last];
  const uint32_t pc = run.addresses[last];
  // Most taken branches are loops: an immediate branch, not a call, to no function entry.
  if (!is_call(insn) && !may_return(insn) && !is_entry(run.next)) return;
  on_taken_branch(insn, pc, run.next, run.sp);
}

void CallTracker::on_taken_branch(const sim::Instruction& insn, uint32_t pc, uint32_t next,
                                  uint32_t sp) {
  if (is_call(insn)) {
    push(next & ~1u, pc + insn.size_bytes, pc, sp);
    return;
  }
  if (may_return(insn)) {
    for (size_t k = stack_.size(); k-- > 1;) {
      if (stack_[k].return_address != next) continue;
      while (k > 1 && stack_[k].returns_with_caller) --k;
      while (stack_.size() > k) pop(sp);
      return;
    }
  }
  if (is_entry(next) && next != stack_.back().function && stack_.size() > 1) {
    // Tail call: the callee returns straight to our caller.
    const StackFrame f = stack_.back();
    if (active_span_ >= 0 && stack_.size() == span_base_ + 1) {
      // The operation's root frame tail-calls: keep the operation open around the callee.
      push(next, f.return_address, pc, sp);
      stack_.back().returns_with_caller = true;
      return;
    }
    pop(sp);
    push(next, f.return_address, f.call_address, sp);
    stack_.back().returns_with_caller = f.returns_with_caller;  // a chain of tail calls
  }
}

void CallTracker::charge_latency(const StackFrame& f, uint32_t address, uint32_t cycles) {
  whole_.profile.nodes[static_cast<size_t>(f.whole_node)].exclusive_cycles += cycles;
  const bool per_address = !options_.call_tree_only;
  // As charge: an operation's per-address costs reach the whole run's at `finish`.
  if (active_span_ >= 0 && f.span_node >= 0) {
    Tree& t = spans_[static_cast<size_t>(active_span_)];
    t.profile.nodes[static_cast<size_t>(f.span_node)].exclusive_cycles += cycles;
    if (per_address) t.address_costs(static_cast<uint32_t>(f.span_node), address).cycles += cycles;
  } else if (per_address) {
    whole_.address_costs(0, address).cycles += cycles;
  }
  now_cycles_ += cycles;
}

void CallTracker::on_exception_entry(uint32_t exception_number, uint32_t handler,
                                     uint32_t return_address, uint32_t cycles, uint32_t sp) {
  (void)exception_number;
  if (stack_.empty()) return;  // nothing executed yet: no interrupted function
  lowest_sp_ = std::min(lowest_sp_, sp);
  if (active_span_ >= 0) span_lowest_sp_ = std::min(span_lowest_sp_, sp);
  // The frame's return address is one no branch reports (the handler returns to an EXC_RETURN
  // value), so only on_exception_return ends it. The raising instruction is the 2-byte SVC.
  constexpr uint32_t kNoReturnAddress = 0xFFFFFFFFu;
  push(handler, kNoReturnAddress, return_address - 2, sp);
  stack_.back().exception_handler = true;
  frames_[stack_.back().frame].exception_handler = true;
  charge_latency(stack_.back(), handler, cycles);
}

void CallTracker::on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) {
  (void)resume_pc;
  size_t k = stack_.size();
  while (k > 0 && !stack_[k - 1].exception_handler) --k;
  if (k == 0) {  // no handler frame open: the latency stays with the current function
    if (!stack_.empty()) charge_latency(stack_.back(), stack_.back().function, cycles);
    return;
  }
  const StackFrame& handler = stack_[k - 1];
  charge_latency(handler, handler.function, cycles);
  while (stack_.size() >= k) pop(sp);
}

ProfileSet CallTracker::finish() {
  while (!stack_.empty()) pop(lowest_sp_);
  ProfileSet set;
  set.frames = frames_;
  auto finish_tree = [&](Tree& t) {
    Profile p = std::move(t.profile);
    if (&t == &whole_) {
      p.total_cycles = now_cycles_;
      p.total_instructions = now_instructions_;
      p.peak_stack_bytes = lowest_sp_ == UINT32_MAX ? 0 : initial_sp_ - lowest_sp_;
    }
    std::unordered_map<uint32_t, Costs> by_address;
    const bool per_node = &t != &whole_;
    if (per_node) p.node_addresses.reserve(t.addresses.size());
    for (const auto& [key, c] : t.addresses) {
      const auto address = static_cast<uint32_t>(key);
      if (per_node)
        p.node_addresses.push_back(
            {static_cast<uint32_t>(key >> 32), address, c.cycles, c.instructions});
      Costs& a = by_address[address];
      a.cycles += c.cycles;
      a.instructions += c.instructions;
    }
    std::sort(p.node_addresses.begin(), p.node_addresses.end(),
              [](const NodeAddressCost& a, const NodeAddressCost& b) {
                return std::tie(a.node, a.address) < std::tie(b.node, b.address);
              });
    for (const auto& [address, c] : by_address) {
      AddressCost a;
      a.address = address;
      a.cycles = c.cycles;
      a.instructions = c.instructions;
      p.addresses.push_back(a);
    }
    std::sort(p.addresses.begin(), p.addresses.end(),
              [](const AddressCost& a, const AddressCost& b) { return a.address < b.address; });
    for (const auto& [k, c] : t.edges) {
      CallEdge e;
      e.caller_frame = k.caller;
      e.callee_frame = k.callee;
      e.call_address = k.call_address;
      e.inclusive_cycles = c.cycles;
      e.inclusive_instructions = c.instructions;
      e.calls = c.count;
      p.edges.push_back(e);
    }
    std::sort(p.edges.begin(), p.edges.end(), [](const CallEdge& a, const CallEdge& b) {
      return std::tie(a.call_address, a.callee_frame) < std::tie(b.call_address, b.callee_frame);
    });
    return p;
  };
  // The whole run's per-address costs include what ran inside operations, which only their
  // trees kept (charge).
  for (const Tree& t : spans_)
    for (const auto& [key, c] : t.addresses) {
      Costs& w = whole_.addresses[static_cast<uint32_t>(key)];
      w.cycles += c.cycles;
      w.instructions += c.instructions;
    }
  set.profiles.push_back(finish_tree(whole_));
  for (auto& t : spans_)
    if (!t.profile.nodes.empty()) set.profiles.push_back(finish_tree(t));
  return set;
}

}  // namespace fathom::profile
