#include "sim/tcg_timing.h"

#include <algorithm>
#include <bit>

#include "sim/timing/skipped_instruction.h"

namespace fathom::sim {
namespace {

constexpr uint32_t kCpuidM33 = 0x411FD210u;  // what SystemControl reports; unused for timing

// Up to four instructions after an IT at index `it` of `instructions` are its block.
int it_length(const Instruction& it) {
  return 4 - std::countr_zero(static_cast<unsigned>(it.it_firstcond_mask & 0x0F));
}

bool is_ppb(uint32_t address) {
  return address - SystemControl::kBase < SystemControl::kSize;
}

}  // namespace

TcgTiming::TcgTiming(std::unique_ptr<timing::CoreTimingModel> model, uint32_t console_address,
                     uint32_t vtor_reset)
    : model_(std::move(model)),
      memoize_(model_->has_compact_state()),
      console_address_(console_address),
      scs_(kCpuidM33, vtor_reset) {}

TcgTiming::Block* TcgTiming::translate(std::span<const TranslatedInstruction> instructions) {
  ++stats_.translations;
  const uint32_t start = instructions.empty() ? 0 : instructions.front().address;
  auto& same_start = blocks_[start];
  std::vector<uint8_t> bytes;
  for (const auto& t : instructions) bytes.insert(bytes.end(), t.bytes.begin(), t.bytes.end());
  // A block QEMU translates again (after a cache flush, or the same code as a one-off block)
  // keeps its memo when its instructions are the same.
  for (auto& existing : same_start)
    if (existing->addresses.size() == instructions.size() && existing->bytes == bytes)
      return existing.get();
  auto block = std::make_unique<Block>();
  Block& b = *block;
  b.start = start;
  b.bytes = std::move(bytes);
  b.memoizable = true;
  int it_left = 0;          // instructions of the current IT block still to come
  bool flags_set = false;   // a flag-setting instruction ran inside it
  // The rest of an IT block an earlier block ended in: the flags may have changed there (the
  // flag-setting instruction can be that block's last), so each condition reads them.
  if (const auto c = it_continues_.find(start); c != it_continues_.end()) {
    it_left = c->second;
    flags_set = true;
  }
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction insn = decoder_.decode(instructions[i].address, instructions[i].bytes);
    uint8_t kind = 0;
    if (it_left > 0) {
      if (flags_set) kind |= Block::kFlags;
      --it_left;
      flags_set |= insn.sets_flags;
    }
    if (insn.cls == InstrClass::kIt) {
      kind |= Block::kFlags;
      it_left = it_length(insn);
      flags_set = false;
    }
    if (model_->uses_operand_values(insn)) kind |= Block::kOperands;
    const bool last = i + 1 == instructions.size();
    // A one-instruction block may be QEMU's one-off block for an MMIO access: always watched
    // (it costs nothing there), whatever the decoder says about the instruction.
    if (instructions.size() == 1 || (last && insn.mem_span_bytes > 0 && insn.mem_base != 13))
      kind |= Block::kMemory;
    b.memoizable &= (kind & Block::kOperands) == 0 && !model_->cost_reads_operands(insn);
    b.has_it |= (kind & Block::kFlags) != 0;
    b.kinds.push_back(kind);
    b.addresses.push_back(instructions[i].address);
    b.instructions.push_back(insn);
  }
  b.end = b.addresses.empty() ? start : b.addresses.back() + b.instructions.back().size_bytes;
  if (it_left > 0) {
    int& rest = it_continues_[b.end];
    rest = std::max(rest, it_left);
  }
  for (const Instruction& insn : b.instructions) {
    b.pointers.push_back(&insn);
    // SP writes: PUSH/POP/LDM/STM with SP writeback, ADD/SUB SP (Capstone lists SP), and
    // system instructions (MSR MSP), conservatively (as sim::Machine).
    b.writes_sp |= (insn.regs_written & (1u << 13)) != 0 ||
                   (insn.cls == InstrClass::kOther && !insn.nop);
  }
  b.id = next_block_id_++;
  same_start.push_back(std::move(block));
  return same_start.back().get();
}

std::optional<size_t> TcgTiming::pending_index(uint32_t address) const {
  if (!pending_) return std::nullopt;
  const auto& a = pending_->addresses;
  for (size_t i = charged_; i < a.size(); ++i)
    if (a[i] == address) return i;
  return std::nullopt;
}

const std::array<uint32_t, 2>* TcgTiming::value_for(size_t index) const {
  for (const auto& [i, v] : values_)
    if (i == index) return &v;
  return nullptr;
}

void TcgTiming::enter(Block* block, bool previous_completed) {
  ++stats_.blocks;
  if (observer_ && !sp_known_) {
    block_sp_ = read_sp_();  // the reset SP, at the first instruction
    sp_known_ = true;
  }
  if (pending_) {
    if (previous_completed) {
      if (charged_ == 0 && memoize_ && pending_->memoizable && !it_.active())
        charge_whole(*pending_, block->start);
      else
        charge_to(pending_->addresses.size(), block->start);
    } else if (auto index = pending_index(block->start)) {
      // Left early, and this block goes on where it stopped (an MMIO access restarted; at
      // index 0 nothing of it ran).
      ++stats_.early_exits;
      charge_to(*index, block->start);
    } else {
      ++stats_.unplaced;
    }
  }
  pending_ = block;
  charged_ = 0;
  values_.clear();
}

void TcgTiming::operands(const Block* block, size_t index, uint32_t first, uint32_t second) {
  if (block != pending_) {
    ++stats_.unplaced;
    return;
  }
  values_.push_back({index, {first, second}});
}

void TcgTiming::flags(const Block* block, size_t index, uint32_t apsr) {
  if (block != pending_) {
    ++stats_.unplaced;
    return;
  }
  values_.push_back({index, {apsr, 0}});
}

void TcgTiming::memory(const Block* block, size_t index, uint32_t address, bool store,
                       uint64_t value) {
  const bool console = address == console_address_;
  if (!console && !is_ppb(address)) return;
  const uint32_t pc = block->addresses[index];
  if (auto i = pending_index(pc))
    charge_to(*i, pc);
  else
    ++stats_.unplaced;
  if (console) {
    if (store) ++console_bytes_;
    return;
  }
  if (!store) {
    if (address == SystemControl::kCycleCounterAddress)
      probes_.push_back({instructions_, console_bytes_, scs_.cycle_counter_at(cycles_)});
    return;
  }
  scs_.write(address, static_cast<uint32_t>(value), cycles_);
}

void TcgTiming::finish() {
  finishing_ = true;  // registers cannot be read any more
  if (pending_) charge_to(pending_->addresses.size(), pending_->end);
  pending_ = nullptr;
}

std::optional<uint64_t> TcgTiming::it_pattern(const Block& b) const {
  // The outcomes charge_one will see, from the flags read for this execution.
  ItBlock walk = it_;
  uint64_t pattern = 0;
  int bits = 0;
  for (size_t i = 0; i < b.instructions.size(); ++i) {
    const std::array<uint32_t, 2>* value =
        (b.kinds[i] & Block::kFlags) ? value_for(i) : nullptr;
    if ((b.kinds[i] & Block::kFlags) && !value) return std::nullopt;
    if (walk.active()) {
      if (value) walk.set_flags((*value)[0]);
      pattern = pattern << 1 | (walk.next_executes() ? 1u : 0u);
      if (++bits > 63) return std::nullopt;
    }
    if (b.instructions[i].cls == InstrClass::kIt)
      walk.start(b.instructions[i].it_firstcond_mask, (*value)[0]);
  }
  // An IT block that goes on into the next block leaves flags the pattern does not pin down
  // (a block ending with the IT itself, at a page boundary): no memo for it.
  if (walk.active()) return std::nullopt;
  return pattern | uint64_t{1} << bits;  // the marker bit tells patterns of other lengths apart
}

void TcgTiming::charge_whole(Block& b, uint32_t next) {
  const size_t n = b.instructions.size();
  uint64_t pattern = 0;
  if (b.has_it) {
    const auto p = it_pattern(b);
    if (!p) {
      charge_to(n, next);
      return;
    }
    pattern = *p;
  }
  const uint64_t key = model_->state_key(b.start) << 1 | (next != b.end ? 1u : 0u);
  for (size_t k = 0; k < b.memo_count; ++k) {
    const Block::Memo& m = b.memo[k];
    if (m.key != key || m.pattern != pattern) continue;
    if (observer_ && m.instruction_cycles.size() != n) continue;
    ++stats_.memoized;
    cycles_ += m.cycles;
    instructions_ += n;
    model_->set_state(m.exit);
    charged_ = n;
    if (observer_ && !b.has_it) {
      // Every instruction executed: one run, its costs straight from the memo.
      ExecutionObserver::InstructionRun run;
      run.instructions = b.pointers.data();
      run.addresses = b.addresses.data();
      run.cycles = m.instruction_cycles.data();
      run.count = n;
      run.total_cycles = m.cycles;
      run.next = next;
      run.sp = block_sp_;
      run.block = b.id;
      run.first = 0;
      run.fallthrough = b.end;
      run.may_write_sp = b.writes_sp;
      observer_->on_instructions(run);
      update_block_sp(b);
    } else if (observer_) {
      // The same outcomes as when the entry was made: replay them to the observer.
      ItBlock walk = it_;
      for (size_t i = 0; i < n; ++i) {
        bool executed = true;
        if (walk.active()) {
          if (b.kinds[i] & Block::kFlags) walk.set_flags((*value_for(i))[0]);
          executed = walk.next_executes();
        }
        if (b.instructions[i].cls == InstrClass::kIt)
          walk.start(b.instructions[i].it_firstcond_mask, (*value_for(i))[0]);
        observe(i, i + 1 < n ? b.addresses[i + 1] : next, m.instruction_cycles[i], executed);
      }
      flush_run(n, next);
      update_block_sp(b);
    }
    it_ = m.it_exit;
    return;
  }
  ++stats_.memo_misses;
  const uint64_t before = cycles_;
  recorded_cycles_.clear();
  recording_ = observer_ != nullptr;
  charge_to(n, next);
  recording_ = false;
  size_t slot = b.memo_count;
  if (b.memo_count < Block::kMemoEntries) {
    ++b.memo_count;
  } else {  // full: replace the oldest entry
    slot = b.memo_next;
    b.memo_next = static_cast<uint8_t>((b.memo_next + 1) % Block::kMemoEntries);
  }
  b.memo[slot] = {key, pattern, cycles_ - before, model_->state(), it_, recorded_cycles_};
}

void TcgTiming::charge_to(size_t end, uint32_t next_after) {
  const size_t n = pending_->addresses.size();
  end = std::min(end, n);
  if (end <= charged_) return;
  for (size_t i = charged_; i < end; ++i)
    charge_one(i, i + 1 < n ? pending_->addresses[i + 1] : next_after);
  charged_ = end;
  if (observer_) {
    flush_run(end, end < n ? pending_->addresses[end] : next_after);
    if (end == n) update_block_sp(*pending_);
  }
}

void TcgTiming::charge_one(size_t i, uint32_t next) {
  const Block& b = *pending_;
  const Instruction& insn = b.instructions[i];
  const uint8_t kind = b.kinds[i];
  const std::array<uint32_t, 2>* value = kind ? value_for(i) : nullptr;
  if (kind && !value && (kind & (Block::kFlags | Block::kOperands))) ++stats_.unplaced;
  bool executed = true;
  if (it_.active()) {
    if ((kind & Block::kFlags) && value) {
      it_.set_flags((*value)[0]);
    } else if (flags_changed_in_it_) {
      // The flags changed inside the IT block in an earlier translation block, and nothing
      // read them here: the condition is decided from stale flags.
      ++stats_.unplaced;
    }
    executed = it_.next_executes();
  }
  if (insn.cls == InstrClass::kIt) it_.start(insn.it_firstcond_mask, value ? (*value)[0] : 0);
  flags_changed_in_it_ = it_.active() && executed && insn.sets_flags;
  if (executed && (kind & Block::kOperands) && value)
    model_->set_operand_values((*value)[0], (*value)[1]);
  const uint32_t c = model_->cycles(timing::charged_instruction(insn, executed, *model_),
                                    b.addresses[i], next);
  cycles_ += c;
  ++instructions_;
  ++stats_.charged;
  if (observer_) {
    if (recording_) recorded_cycles_.push_back(c);
    observe(i, next, c, executed);
  }
}

void TcgTiming::set_observer(ExecutionObserver* observer, std::function<uint32_t()> read_sp) {
  observer_ = observer;
  read_sp_ = std::move(read_sp);
}

void TcgTiming::observe(size_t i, uint32_t next, uint32_t cycles, bool executed) {
  if (executed) {
    if (run_cycles_.empty()) run_first_ = i;
    run_cycles_.push_back(cycles);
    return;
  }
  // An IT-skipped instruction goes alone, between runs (as sim::Machine reports it).
  flush_run(i, pending_->addresses[i]);
  observer_->on_instruction(pending_->instructions[i], pending_->addresses[i], next, cycles,
                            false, block_sp_);
}

void TcgTiming::flush_run(size_t end, uint32_t next) {
  if (run_cycles_.empty()) return;
  const Block& b = *pending_;
  ExecutionObserver::InstructionRun run;
  run.instructions = b.pointers.data() + run_first_;
  run.addresses = b.addresses.data() + run_first_;
  run.cycles = run_cycles_.data();
  run.count = end - run_first_;
  for (const uint32_t c : run_cycles_) run.total_cycles += c;
  run.next = next;
  run.sp = block_sp_;
  run.block = b.id;
  run.first = static_cast<uint32_t>(run_first_);
  run.fallthrough = end < b.addresses.size() ? b.addresses[end] : b.end;
  run.may_write_sp = b.writes_sp;
  observer_->on_instructions(run);
  run_cycles_.clear();
}

void TcgTiming::update_block_sp(const Block& b) {
  // SP after a block that may write it; a block that does not leaves the SP it started with.
  if (b.writes_sp && !finishing_) block_sp_ = read_sp_();
}

}  // namespace fathom::sim
