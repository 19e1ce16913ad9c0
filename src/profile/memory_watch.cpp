#include "profile/memory_watch.h"

#include <fmt/core.h>

#include <algorithm>
#include <bit>

#include "elf/harness_operations.h"

namespace fathom::profile {
namespace {

constexpr unsigned kSp = 13, kLr = 14;
constexpr sim::RegMask kSpBit = 1u << kSp;

enum HeapKind { kMalloc = 0, kCalloc, kRealloc, kFree };

StackPointerEffect none() { return {}; }
StackPointerEffect moves(int32_t delta) { return {StackPointerEffect::Kind::kStatic, delta}; }
StackPointerEffect dynamic() { return {StackPointerEffect::Kind::kDynamic, 0}; }

// ThumbExpandImm (ARM DDI 0403E, A5.3.2) without the carry.
uint32_t thumb_expand_imm(uint32_t imm12) {
  const uint32_t imm8 = imm12 & 0xFF;
  if ((imm12 & 0xC00) == 0) {
    switch ((imm12 >> 8) & 3) {
      case 0: return imm8;
      case 1: return imm8 << 16 | imm8;
      case 2: return imm8 << 24 | imm8 << 8;
      default: return imm8 << 24 | imm8 << 16 | imm8 << 8 | imm8;
    }
  }
  return std::rotr(0x80u | (imm12 & 0x7F), static_cast<int>((imm12 >> 7) & 0x1F));
}

StackPointerEffect effect16(uint16_t hw) {
  if ((hw & 0xFE00) == 0xB400) return moves(-4 * std::popcount(hw & 0x1FFu));  // PUSH
  if ((hw & 0xFE00) == 0xBC00) return moves(4 * std::popcount(hw & 0x1FFu));   // POP
  if ((hw & 0xFF80) == 0xB000) return moves(4 * (hw & 0x7F));                  // ADD SP,#
  if ((hw & 0xFF80) == 0xB080) return moves(-4 * (hw & 0x7F));                 // SUB SP,#
  // ADD Rdn, Rm and MOV Rd, Rm (high registers): Rd = D:Rd.
  if ((hw & 0xFF00) == 0x4400 || (hw & 0xFF00) == 0x4600) {
    const unsigned rd = ((hw >> 4) & 8u) | (hw & 7u);
    if (rd == kSp) return dynamic();
  }
  return none();
}

StackPointerEffect effect32(uint16_t hw1, uint16_t hw2) {
  const unsigned rn = hw1 & 0xFu;
  // LDM/STM (A5.3.5): 1110 100 op 0 W L Rn; op 01 = IA, 10 = DB.
  if ((hw1 & 0xFE40) == 0xE800) {
    const bool writeback = (hw1 & 0x20) != 0;
    if (!writeback || rn != kSp) return none();
    const int32_t bytes = 4 * std::popcount(static_cast<unsigned>(hw2));
    return ((hw1 >> 7) & 3) == 1 ? moves(bytes) : moves(-bytes);
  }
  // LDRD/STRD (A5.3.6): 1110 100 P U 1 W L Rn; writeback when W.
  if ((hw1 & 0xFE40) == 0xE840) {
    if ((hw1 & 0x20) == 0 || rn != kSp) return none();
    const int32_t bytes = 4 * (hw2 & 0xFF);
    return (hw1 & 0x80) ? moves(bytes) : moves(-bytes);
  }
  // VLDM/VSTM/VPUSH/VPOP (A6.4): 1110 110 P U D W L Rn, Vd 101x imm8 (imm8 = words).
  if ((hw1 & 0xFE00) == 0xEC00 && (hw2 & 0x0E00) == 0x0A00) {
    if ((hw1 & 0x20) == 0 || rn != kSp) return none();
    const int32_t bytes = 4 * (hw2 & 0xFF);
    return (hw1 & 0x80) ? moves(bytes) : moves(-bytes);
  }
  // Single loads and stores (A5.3.7-10): 1111 100 S x sz L Rn.
  if ((hw1 & 0xFE00) == 0xF800) {
    const unsigned rt = hw2 >> 12;
    const bool load = (hw1 & 0x10) != 0;
    if (load && rt == kSp) return dynamic();  // LDR SP, [..] (startup code)
    // The "1PUW imm8" form (bit 7 clear, hw2 bit 11 set) writes the base back when W.
    if (rn == kSp && (hw1 & 0x80) == 0 && (hw2 & 0x0800) != 0 && (hw2 & 0x0100) != 0) {
      const int32_t bytes = hw2 & 0xFF;
      return (hw2 & 0x0200) ? moves(bytes) : moves(-bytes);
    }
    return none();
  }
  // Data processing, modified immediate (A5.3.1): 11110 i 0 op S Rn, 0 imm3 Rd imm8.
  if ((hw1 & 0xFA00) == 0xF000 && (hw2 & 0x8000) == 0) {
    if (((hw2 >> 8) & 0xF) != kSp) return none();
    const unsigned op = (hw1 >> 5) & 0xF;
    if (rn == kSp && (op == 0x8 || op == 0xD)) {  // ADD/SUB SP, SP, #const
      const uint32_t imm12 = ((hw1 & 0x400u) << 1) | ((hw2 & 0x7000u) >> 4) | (hw2 & 0xFFu);
      const auto value = static_cast<int32_t>(thumb_expand_imm(imm12));
      return op == 0x8 ? moves(value) : moves(-value);
    }
    return dynamic();
  }
  // Data processing, plain binary immediate (A5.3.3): 11110 i 1 op Rn, 0 imm3 Rd imm8.
  if ((hw1 & 0xFA00) == 0xF200 && (hw2 & 0x8000) == 0) {
    if (((hw2 >> 8) & 0xF) != kSp) return none();
    const unsigned op = (hw1 >> 4) & 0x1F;
    if (rn == kSp && (op == 0x00 || op == 0x0A)) {  // ADDW/SUBW SP, SP, #imm12
      const auto imm12 =
          static_cast<int32_t>(((hw1 & 0x400u) << 1) | ((hw2 & 0x7000u) >> 4) | (hw2 & 0xFFu));
      return op == 0x00 ? moves(imm12) : moves(-imm12);
    }
    return dynamic();
  }
  // Data processing, shifted register (A5.3.11) and register (A5.3.12): Rd = hw2[11:8].
  if ((hw1 & 0xFE00) == 0xEA00 || (hw1 & 0xFF00) == 0xFA00 || (hw1 & 0xFF00) == 0xFB00) {
    // (MOV.W SP, Rm; ADD.W SP, SP, Rm...; Rd = 15 forms are TST/CMP, not SP writes.)
    return ((hw2 >> 8) & 0xF) == kSp ? dynamic() : none();
  }
  // MSR (A7.7.83): 1111 0011 100 0 Rn, 1000 mask 0000 SYSm. MSP (8) or CONTROL (20).
  if ((hw1 & 0xFFF0) == 0xF380 && (hw2 & 0xFF00) == 0x8800) {
    const unsigned sysm = hw2 & 0xFF;
    return sysm == 8 || sysm == 20 ? dynamic() : none();
  }
  return none();
}

}  // namespace

StackPointerEffect stack_pointer_effect(uint16_t hw1, uint16_t hw2) {
  const bool wide = (hw1 & 0xF800) == 0xE800 || (hw1 & 0xF000) == 0xF000;
  return wide ? effect32(hw1, hw2) : effect16(hw1);
}

util::Result<MemoryWatchOptions> memory_watch_options(const elf::ElfImage& image) {
  auto entries = elf::harness_operation_entries(image);
  if (!entries) return tl::unexpected(entries.error());
  MemoryWatchOptions o;
  for (const auto& e : *entries) o.operations.push_back({e.name, e.run_address});
  // The harness links with --wrap: its wrappers are the API every caller reaches.
  const bool wrapped = image.find_symbol("__wrap_malloc") != nullptr;
  auto entry = [&](const char* name) -> uint32_t {
    const elf::Symbol* s = image.find_symbol(wrapped ? fmt::format("__wrap_{}", name) : name);
    return s ? s->address & ~1u : 0;
  };
  o.malloc_entry = entry("malloc");
  o.calloc_entry = entry("calloc");
  o.realloc_entry = entry("realloc");
  o.free_entry = entry("free");
  return o;
}

MemoryWatch::MemoryWatch(const elf::ElfImage& image, MemoryWatchOptions options,
                         RegisterReader read_register)
    : image_(image), options_(std::move(options)), read_register_(std::move(read_register)) {
  uint32_t low = UINT32_MAX, high = 0;
  for (const auto& seg : image_.segments())
    if (seg.executable && !seg.data.empty()) {
      low = std::min(low, seg.virtual_address);
      high = std::max<uint32_t>(high, seg.virtual_address + static_cast<uint32_t>(seg.data.size()));
    }
  if (low < high) {
    code_origin_ = low;
    code_.assign(high - low, 0);
    for (const auto& seg : image_.segments())
      if (seg.executable && !seg.data.empty())
        std::copy(seg.data.begin(), seg.data.end(), code_.begin() + (seg.virtual_address - low));
    effects_.assign(code_.size() / 2, kUndecoded);
  }
  for (size_t i = 0; i < options_.operations.size(); ++i)
    operation_by_entry_.emplace(options_.operations[i].entry & ~1u, i);
  if (!operation_by_entry_.empty()) {
    uint32_t low = UINT32_MAX, high = 0;
    for (const auto& [entry, index] : operation_by_entry_) {
      low = std::min(low, entry);
      high = std::max(high, entry);
    }
    operations_origin_ = low;
    operation_entries_.assign((high - low) / 2 + 1, false);
    for (const auto& [entry, index] : operation_by_entry_)
      operation_entries_[(entry - low) / 2] = true;
  }
}

StackPointerEffect MemoryWatch::effect_at(uint32_t pc) {
  const uint32_t index = (pc - code_origin_) >> 1;
  if (index >= effects_.size()) return {};
  int32_t& slot = effects_[index];
  if (slot == kUndecoded) {
    const size_t at = size_t{index} * 2;
    auto half = [&](size_t a) -> uint16_t {
      return a + 1 < code_.size() ? static_cast<uint16_t>(code_[a] | code_[a + 1] << 8) : 0;
    };
    const StackPointerEffect e = stack_pointer_effect(half(at), half(at + 2));
    slot = e.kind == StackPointerEffect::Kind::kDynamic ? kDynamicSp : e.delta_bytes;
  }
  if (slot == kDynamicSp) return {StackPointerEffect::Kind::kDynamic, 0};
  return {slot ? StackPointerEffect::Kind::kStatic : StackPointerEffect::Kind::kNone, slot};
}

void MemoryWatch::set_sp(uint32_t value) {
  sp_ = value;
  lowest_sp_ = std::min(lowest_sp_, value);
  if (in_operation_) {
    OperationMemory& e = executions_.back();
    if (value < e.lowest_sp) e.deepest_pc = pc_;
    e.lowest_sp = std::min(e.lowest_sp, value);
  }
}

void MemoryWatch::resolve_deferred(uint32_t sp_after_last) {
  // Work back from the SP after the block's last instruction to the one just after the
  // untracked write: every value in between was the SP at some point.
  uint32_t s = sp_after_last;
  set_sp(s);
  for (auto d = deferred_deltas_.rbegin(); d != deferred_deltas_.rend(); ++d) {
    s -= static_cast<uint32_t>(*d);
    set_sp(s);
  }
  sp_ = sp_after_last;
  deferred_ = false;
  deferred_deltas_.clear();
}

void MemoryWatch::on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next,
                                 uint32_t, bool executed, uint32_t sp) {
  pc_ = pc;
  if (!started_) {
    started_ = true;
    block_sp_ = sp;
    set_sp(sp);
  } else if (sp != block_sp_) {
    // A new translation block (kPerInstruction: a new instruction): `sp` is exact here.
    if (deferred_) resolve_deferred(sp);
    block_sp_ = sp;
    set_sp(sp);
  }
  const uint32_t target = next & ~1u;

  // Stack pointer.
  StackPointerEffect effect;
  if (executed) {
    effect = effect_at(pc);
    // Anything the encoding table does not know (code outside the image) but that writes SP.
    if (effect.kind == StackPointerEffect::Kind::kNone && (insn.regs_written & kSpBit) &&
        pc - code_origin_ >= code_.size())
      effect.kind = StackPointerEffect::Kind::kDynamic;
  }
  if (deferred_) {
    if (effect.kind == StackPointerEffect::Kind::kDynamic) {
      // A second untracked write before the first was resolved: the SPs between them are lost.
      ++inexact_sp_events_;
      deferred_deltas_.clear();
    } else {
      deferred_deltas_.push_back(effect.delta_bytes);
    }
  } else if (effect.kind == StackPointerEffect::Kind::kStatic) {
    set_sp(sp_ + static_cast<uint32_t>(effect.delta_bytes));
  } else if (effect.kind == StackPointerEffect::Kind::kDynamic) {
    const uint32_t value = read_register_(kSp);
    if (options_.registers_after_each_instruction) {
      set_sp(value);  // the CPU is right after this instruction
    } else {
      // kBlock: the CPU is after the block's last instruction; work back once it is seen.
      deferred_ = true;
      deferred_end_sp_ = value;
      deferred_deltas_.clear();
    }
  }
  // Every branch, taken or not, ends a translation block: the SP read is the one after it.
  if (deferred_ && (insn.cls == sim::InstrClass::kBranch ||
                    insn.cls == sim::InstrClass::kTableBranch || insn.writes_pc))
    resolve_deferred(deferred_end_sp_);

  if (!executed || next == pc + insn.size_bytes) return;
  on_taken_branch(pc, target);
}

void MemoryWatch::on_instructions(const sim::ExecutionObserver::InstructionRun& run) {
  if (deferred_ || !started_) {
    sim::ExecutionObserver::on_instructions(run);  // one at a time
    return;
  }
  // A run that writes no SP has no SP effect: no summary needed (the usual case).
  const RunSummary* summary = nullptr;
  if (run.may_write_sp) {
    // The usual case first: the block's first cached summary is this run's.
    const RunSummary* cached = run.block < summaries_.size()
                                   ? &summaries_[run.block].entries[0]
                                   : nullptr;
    summary = cached && cached->count == run.count && cached->first == run.first
                  ? cached
                  : &summary_of(run);
    if (summary->untracked) {
      sim::ExecutionObserver::on_instructions(run);  // one at a time
      return;
    }
  }
  // What on_instruction does for each, at once: every SP effect of the run is static.
  if (run.sp != block_sp_) {
    block_sp_ = run.sp;
    pc_ = run.addresses[0];
    set_sp(run.sp);
  }
  if (summary) {
    const uint32_t start_sp = sp_;
    if (summary->lowest_offset < 0) {
      pc_ = run.addresses[summary->lowest_index];
      set_sp(start_sp + static_cast<uint32_t>(summary->lowest_offset));
    }
    sp_ = start_sp + static_cast<uint32_t>(summary->end_offset);
  }
  pc_ = run.addresses[run.count - 1];
  if (run.next == run.fallthrough) return;
  const uint32_t target = run.next & ~1u;
  // Most taken branches neither enter nor leave the heap API or an operation.
  if (heap_call_.kind < 0 ? !is_heap_entry(target) : target != heap_call_.return_address) {
    if (in_operation_ ? target != operation_return_ : !is_operation_entry(target)) return;
  }
  on_taken_branch(pc_, target);
}

const MemoryWatch::RunSummary& MemoryWatch::summary_of(
    const sim::ExecutionObserver::InstructionRun& run) {
  // A few cached summaries per block: a block whose IT skips differ from run to run is
  // reported as different runs (from `first`, `count` long).
  if (run.block >= summaries_.size()) summaries_.resize(run.block + 1);
  BlockSummaries& cached = summaries_[run.block];
  for (RunSummary& c : cached.entries)
    if (c.count == run.count && c.first == run.first) return c;
  RunSummary& s = cached.entries[cached.next];
  cached.next = static_cast<uint8_t>((cached.next + 1) % cached.entries.size());
  s = RunSummary{};
  s.first = run.first;
  s.count = run.count;
  int32_t offset = 0;
  for (size_t i = 0; i < run.count; ++i) {
    const uint32_t pc = run.addresses[i];
    const StackPointerEffect effect = effect_at(pc);
    if (effect.kind == StackPointerEffect::Kind::kDynamic ||
        (effect.kind == StackPointerEffect::Kind::kNone &&
         (run.instructions[i]->regs_written & kSpBit) && pc - code_origin_ >= code_.size())) {
      s.untracked = true;
      break;
    }
    offset += effect.delta_bytes;
    if (offset < s.lowest_offset) {
      s.lowest_offset = offset;
      s.lowest_index = static_cast<uint32_t>(i);
    }
  }
  s.end_offset = offset;
  return s;
}

void MemoryWatch::on_taken_branch(uint32_t pc, uint32_t target) {
  // A taken branch: into or out of the heap API, into or out of an operation.
  if (heap_call_.kind < 0) {
    int kind = -1;
    if (target == options_.malloc_entry) kind = kMalloc;
    else if (target == options_.calloc_entry) kind = kCalloc;
    else if (target == options_.realloc_entry) kind = kRealloc;
    else if (target == options_.free_entry) kind = kFree;
    if (kind >= 0 && target != 0) on_heap_entry(kind, pc);
  } else if (target == heap_call_.return_address) {
    on_heap_return();
  }
  if (!in_operation_) {
    if (auto op = operation_by_entry_.find(target); op != operation_by_entry_.end()) {
      OperationMemory e;
      e.operation = op->second;
      e.call_address = pc;
      e.entry_sp = sp_;
      e.lowest_sp = sp_;
      e.heap_start_bytes = heap_in_use_;
      e.heap_peak_bytes = heap_in_use_;
      executions_.push_back(e);
      in_operation_ = true;
      operation_return_ = read_register_(kLr) & ~1u;
    }
  } else if (target == operation_return_) {
    OperationMemory& e = executions_.back();
    e.returned = true;
    in_operation_ = false;
    if (read_word_) {
      uint32_t at = e.lowest_sp & ~3u;
      while (at < e.entry_sp && read_word_(at) == options_.stack_paint_word) at += 4;
      e.unwritten_bytes = at > e.lowest_sp ? at - e.lowest_sp : 0;
    }
  }
}

void MemoryWatch::on_heap_entry(int kind, uint32_t) {
  // The branch ended its block: the registers are the callee's entry state.
  heap_call_.kind = kind;
  heap_call_.arg0 = read_register_(0);
  heap_call_.arg1 = read_register_(1);
  heap_call_.return_address = read_register_(kLr) & ~1u;
}

void MemoryWatch::heap_level_changed() {
  heap_peak_ = std::max(heap_peak_, heap_in_use_);
  if (in_operation_) {
    OperationMemory& e = executions_.back();
    e.heap_peak_bytes = std::max(e.heap_peak_bytes, heap_in_use_);
  }
}

void MemoryWatch::on_heap_return() {
  const HeapCall call = heap_call_;
  heap_call_ = HeapCall{};
  const uint32_t result = read_register_(0);
  auto release = [&](uint32_t pointer) {
    if (pointer == 0) return;
    auto it = blocks_.find(pointer);
    if (it == blocks_.end()) {
      ++unknown_frees_;
      return;
    }
    heap_in_use_ -= it->second;
    blocks_.erase(it);
  };
  auto allocated = [&](uint64_t bytes) {
    blocks_[result] = bytes;
    heap_in_use_ += bytes;
    ++allocations_;
    if (in_operation_) ++executions_.back().allocations;
    heap_level_changed();
  };
  switch (call.kind) {
    case kMalloc:
      if (result != 0) allocated(call.arg0);
      break;
    case kCalloc:
      if (result != 0) allocated(uint64_t{call.arg0} * call.arg1);
      break;
    case kRealloc:
      if (result == 0) {
        if (call.arg1 == 0) release(call.arg0);  // realloc(p, 0) frees p
      } else if (result == call.arg0) {
        // Resized in place: no moment with both blocks.
        release(call.arg0);
        allocated(call.arg1);
      } else {
        allocated(call.arg1);  // the new block exists while the old one is copied
        release(call.arg0);
      }
      break;
    case kFree:
      release(call.arg0);
      break;
    default:
      break;
  }
}

std::vector<OperationMemory> MemoryWatch::executions() const { return executions_; }

void MemoryWatch::on_snapshot() {
  saved_ = Saved{started_,         block_sp_,  sp_,      deferred_,   deferred_end_sp_,
                 deferred_deltas_, blocks_,    heap_in_use_, heap_call_, in_operation_,
                 operation_return_};
}

void MemoryWatch::on_restore() {
  if (!saved_) return;
  started_ = saved_->started;
  block_sp_ = saved_->block_sp;
  sp_ = saved_->sp;
  deferred_ = saved_->deferred;
  deferred_end_sp_ = saved_->deferred_end_sp;
  deferred_deltas_ = saved_->deferred_deltas;
  blocks_ = saved_->blocks;
  heap_in_use_ = saved_->heap_in_use;
  heap_call_ = saved_->heap_call;
  in_operation_ = saved_->in_operation;
  operation_return_ = saved_->operation_return;
}

}  // namespace fathom::profile
