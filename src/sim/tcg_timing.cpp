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
  // A block QEMU translates again (after a cache flush, or the same code as a one-off block)
  // keeps its memo when its instructions are the same.
  for (auto& existing : same_start) {
    if (existing->addresses.size() != instructions.size()) continue;
    std::vector<uint8_t> bytes;
    for (const auto& t : instructions) bytes.insert(bytes.end(), t.bytes.begin(), t.bytes.end());
    if (bytes == existing->bytes) return existing.get();
  }
  auto block = std::make_unique<Block>();
  Block& b = *block;
  b.start = start;
  b.memoizable = true;
  int it_left = 0;          // instructions of the current IT block still to come
  bool flags_set = false;   // a flag-setting instruction ran inside it
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction insn = decoder_.decode(instructions[i].address, instructions[i].bytes);
    b.bytes.insert(b.bytes.end(), instructions[i].bytes.begin(), instructions[i].bytes.end());
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
    if ((instructions.size() == 1 || last) && insn.mem_span_bytes > 0 && insn.mem_base != 13)
      kind |= Block::kMemory;
    b.memoizable &= (kind & Block::kOperands) == 0 && !model_->cost_reads_operands(insn);
    b.has_it |= (kind & Block::kFlags) != 0;
    b.kinds.push_back(kind);
    b.addresses.push_back(instructions[i].address);
    b.instructions.push_back(insn);
  }
  b.end = b.addresses.empty() ? start : b.addresses.back() + b.instructions.back().size_bytes;
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
  if (pending_) {
    if (previous_completed) {
      if (charged_ == 0 && memoize_ && pending_->memoizable && !it_.active())
        charge_whole(*pending_, block->start);
      else
        charge_to(pending_->addresses.size(), block->start);
    } else if (auto index = pending_index(block->start); index && *index > 0) {
      // Left early, and this block goes on where it stopped (an MMIO access restarted).
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
    ++stats_.memoized;
    cycles_ += m.cycles;
    instructions_ += n;
    model_->set_state(m.exit);
    it_ = m.it_exit;
    charged_ = n;
    return;
  }
  ++stats_.memo_misses;
  const uint64_t before = cycles_;
  charge_to(n, next);
  size_t slot = b.memo_count;
  if (b.memo_count < Block::kMemoEntries) {
    ++b.memo_count;
  } else {  // full: replace the oldest entry
    slot = b.memo_next;
    b.memo_next = static_cast<uint8_t>((b.memo_next + 1) % Block::kMemoEntries);
  }
  b.memo[slot] = {key, pattern, cycles_ - before, model_->state(), it_};
}

void TcgTiming::charge_to(size_t end, uint32_t next_after) {
  const size_t n = pending_->addresses.size();
  end = std::min(end, n);
  for (size_t i = charged_; i < end; ++i)
    charge_one(i, i + 1 < n ? pending_->addresses[i + 1] : next_after);
  charged_ = std::max(charged_, end);
}

void TcgTiming::charge_one(size_t i, uint32_t next) {
  const Block& b = *pending_;
  const Instruction& insn = b.instructions[i];
  const uint8_t kind = b.kinds[i];
  const std::array<uint32_t, 2>* value = kind ? value_for(i) : nullptr;
  if (kind && !value && (kind & (Block::kFlags | Block::kOperands))) ++stats_.unplaced;
  bool executed = true;
  if (it_.active()) {
    if ((kind & Block::kFlags) && value) it_.set_flags((*value)[0]);
    executed = it_.next_executes();
  }
  if (insn.cls == InstrClass::kIt) it_.start(insn.it_firstcond_mask, value ? (*value)[0] : 0);
  if (executed && (kind & Block::kOperands) && value)
    model_->set_operand_values((*value)[0], (*value)[1]);
  cycles_ += model_->cycles(timing::charged_instruction(insn, executed, *model_), b.addresses[i],
                            next);
  ++instructions_;
  ++stats_.charged;
}

}  // namespace fathom::sim
