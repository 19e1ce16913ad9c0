#include "sim/machine.h"
#include "sim/timing/timing_rules.h"
#include "sim/timing/skipped_instruction.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>

namespace fathom::sim {
namespace {

constexpr uint32_t kConsoleSize = 0x1000;
constexpr uint32_t kConsoleTx = 0x0;
constexpr uint32_t kConsoleExit = 0x4;
constexpr uint32_t kPageSize = 0x1000;

struct CoreInfo {
  const char* name;
  uc_cpu_arm unicorn_model;
  uint32_t cpuid;  // SCB->CPUID reset value from each core's TRM
};

constexpr std::array<CoreInfo, 4> kCores = {{
    {"cortex-m0plus", UC_CPU_ARM_CORTEX_M0, 0x410CC601u},
    {"cortex-m3", UC_CPU_ARM_CORTEX_M3, 0x412FC231u},
    {"cortex-m4", UC_CPU_ARM_CORTEX_M4, 0x410FC241u},
    {"cortex-m33", UC_CPU_ARM_CORTEX_M33, 0x410FD214u},
}};

// Exception numbers Unicorn passes to UC_HOOK_INTR for Arm (QEMU target/arm/cpu.h EXCP_*).
std::string exception_name(uint32_t intno) {
  switch (intno) {
    case 1: return "undefined-instruction";
    case 2: return "svc";
    case 3: return "prefetch-abort";
    case 4: return "data-abort";
    case 7: return "breakpoint";
    case 8: return "exception-return";
    case 16: return "semihosting";
    case 17: return "coprocessor-disabled";
    case 18: return "invalid-state";
    case 19: return "stack-limit";
    case 22: return "unaligned-access";
    default: return fmt::format("exception-{}", intno);
  }
}

// Exceptions (ARMv7-M ARM DDI 0403E B1.5.6 "Exception entry behavior", B1.5.8 "Exception
// return behavior"; ARMv8-M keeps them for a core without the Security Extension's state
// changes). Unicorn 2.0.1 hands M-profile exceptions to the UC_HOOK_INTR hook instead of
// taking them: the machine does what the core would.
constexpr uint32_t kExcpSvc = 2;              // QEMU EXCP_SWI, PC already past the SVC
constexpr uint32_t kExcpExceptionExit = 8;    // QEMU EXCP_EXCEPTION_EXIT, PC = EXC_RETURN & ~1
constexpr uint32_t kSvcallException = 11;
constexpr uint32_t kExcReturnThreadMain = 0xFFFFFFF9u;  // thread mode, main stack, basic frame
constexpr uint32_t kBasicFrameBytes = 32;     // r0-r3, r12, lr, return address, xPSR
constexpr uint32_t kXpsrStackAligned = 1u << 9;  // stacked xPSR: the entry realigned SP by 4
constexpr uint32_t kXpsrIpsr = 0x1FFu;
constexpr uint32_t kXpsrIt = 0x0600FC00u;     // EPSR.IT/ICI bits
constexpr uint32_t kControlSpsel = 1u << 1;   // thread mode runs on the process stack
constexpr uint32_t kControlFpca = 1u << 2;    // an FP context is active

}  // namespace

util::Result<std::unique_ptr<Machine>> Machine::create(const model::Board& board,
                                                       HookMode mode) {
  auto core = std::find_if(kCores.begin(), kCores.end(),
                           [&](const CoreInfo& c) { return board.core == c.name; });
  if (core == kCores.end())
    return util::fail(fmt::format("board '{}': the simulator has no CPU model for core '{}'",
                                  board.name, board.core));
  auto timing = timing::make_timing_model(board);
  if (!timing) return tl::unexpected(timing.error());

  uc_engine* uc = nullptr;
  uc_err err = uc_open(UC_ARCH_ARM, static_cast<uc_mode>(UC_MODE_THUMB | UC_MODE_MCLASS), &uc);
  if (err != UC_ERR_OK)
    return util::fail(fmt::format("cannot start Unicorn: {}", uc_strerror(err)));
  err = uc_ctl_set_cpu_model(uc, core->unicorn_model);
  if (err != UC_ERR_OK) {
    uc_close(uc);
    return util::fail(fmt::format("Unicorn has no {} model: {}", board.core, uc_strerror(err)));
  }
  std::unique_ptr<Machine> m(new Machine(board, uc, std::move(*timing), mode));
  m->cpuid_ = core->cpuid;
  m->scs_ = SystemControl(core->cpuid);

  for (const auto& r : board.memory) {
    if (r.origin % kPageSize || r.length_bytes % kPageSize || r.length_bytes == 0)
      return util::fail(fmt::format("board '{}': memory region '{}' must start and end on a 4 KiB "
                                    "boundary for the simulator",
                                    board.name, r.name));
    const uint32_t perms = r.kind == model::MemoryKind::kFlash ? (UC_PROT_READ | UC_PROT_EXEC)
                                                               : UC_PROT_ALL;
    err = uc_mem_map(uc, r.origin, r.length_bytes, perms);
    if (err != UC_ERR_OK)
      return util::fail(fmt::format("board '{}': cannot map region '{}': {}", board.name, r.name,
                                    uc_strerror(err)));
    m->code_regions_.push_back({r.origin, r.length_bytes, {}});
    m->code_regions_.back().decoded.resize(r.length_bytes / 2);
  }
  err = uc_mmio_map(uc, SystemControl::kBase, SystemControl::kSize, &Machine::on_ppb_read,
                    m.get(), &Machine::on_ppb_write, m.get());
  if (err == UC_ERR_OK)
    err = uc_mmio_map(uc, board.console_address, kConsoleSize, &Machine::on_console_read,
                      m.get(), &Machine::on_console_write, m.get());
  if (err != UC_ERR_OK)
    return util::fail(fmt::format("board '{}': cannot map the console or system control space "
                                  "(overlaps memory?): {}",
                                  board.name, uc_strerror(err)));
  if (uc_context_alloc(uc, &m->reset_context_) != UC_ERR_OK ||
      uc_context_save(uc, m->reset_context_) != UC_ERR_OK)
    return util::fail("cannot save the simulated CPU's reset state (Unicorn context)");
  uc_hook h;
  if (mode == HookMode::kPerInstruction)
    uc_hook_add(uc, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_code), m.get(), 1, 0);
  else if (mode == HookMode::kBlock)
    uc_hook_add(uc, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&Machine::on_block), m.get(), 1,
                0);
  else
    uc_hook_add(uc, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&Machine::on_block_count), m.get(),
                1, 0);
  uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
              reinterpret_cast<void*>(&Machine::on_unmapped), m.get(), 1, 0);
  uc_hook_add(uc, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&Machine::on_interrupt), m.get(), 1,
              0);
  uc_hook_add(uc, &h, UC_HOOK_INSN_INVALID,
              reinterpret_cast<void*>(&Machine::on_invalid_instruction), m.get(), 1, 0);
  return m;
}

Machine::Machine(const model::Board& board, uc_engine* uc,
                 std::unique_ptr<timing::CoreTimingModel> timing, HookMode mode)
    : board_(board), uc_(uc), timing_(std::move(timing)), scs_(0), mode_(mode) {}

Machine::~Machine() {
  drop_isolation_snapshot();
  if (reset_context_) uc_context_free(reset_context_);
  if (uc_) uc_close(uc_);
}

util::Result<void> Machine::load(const elf::ElfImage& image) {
  for (const auto& seg : image.segments()) {
    if (seg.data.empty()) continue;
    const uint64_t end = static_cast<uint64_t>(seg.load_address) + seg.data.size();
    const auto* region = [&]() -> const model::MemoryRegion* {
      for (const auto& r : board_.memory)
        if (seg.load_address >= r.origin && end <= static_cast<uint64_t>(r.origin) + r.length_bytes)
          return &r;
      return nullptr;
    }();
    if (!region)
      return util::fail(fmt::format(
          "image segment at {:#010x} ({} bytes) does not fit in any memory region of board '{}'",
          seg.load_address, seg.data.size(), board_.name));
    if (uc_mem_write(uc_, seg.load_address, seg.data.data(), seg.data.size()) != UC_ERR_OK)
      return util::fail(fmt::format("cannot write segment at {:#010x}", seg.load_address));
  }
  image_ = &image;
  persist_start_ = persist_end_ = 0;
  if (const auto* a = image.find_symbol("__fathom_persist_start"))
    if (const auto* b = image.find_symbol("__fathom_persist_end"))
      if (a->address <= b->address) persist_start_ = a->address, persist_end_ = b->address;
  const model::MemoryRegion* ram = nullptr;
  for (const auto& r : board_.memory)
    if (r.kind == model::MemoryKind::kRam && !ram) ram = &r;
  std::optional<uint32_t> end_address;
  if (const auto* s = image.find_symbol("__end__")) end_address = s->address;
  else if (const auto* s = image.find_symbol("end")) end_address = s->address;
  semihosting_.emplace(
      [this](uint32_t a, void* out, size_t n) {
        return in_board_memory(a, n, false) && uc_mem_read(uc_, a, out, n) == UC_ERR_OK;
      },
      [this](uint32_t a, const void* data, size_t n) {
        return in_board_memory(a, n, true) && uc_mem_write(uc_, a, data, n) == UC_ERR_OK;
      },
      ram ? semihosting_heap_info(ram->origin, ram->length_bytes, board_.stack_bytes, end_address)
          : SemihostingHeapInfo{},
      board_.clock_hz);
  blocks_.clear();
  block_cache_.fill(nullptr);
  if (mode_ == HookMode::kBlock) install_operand_hooks(image);
  return {};
}

void Machine::install_operand_hooks(const elf::ElfImage& image) {
  // Unicorn walks its whole list of code hooks at every hooked instruction, so hooks go only
  // where the block model cannot do without them: eagerly on divides and long multiplies
  // (few), lazily on the ITs that need one (hundreds in an image on the M33, where every IT
  // condition changes a cost; most never run): see `hook_lazy_its`.
  for (const auto& range : image.thumb_code_ranges()) {
    for (uint32_t a = range.begin; a < range.end;) {
      const Instruction& insn = instruction_at(a);
      if (timing_->uses_operand_values(insn)) {
        add_operand_hook(a);
      } else if (!it_needs_hook(a, range.end)) {
      } else if (auto result = readable_it_result(a, range.begin, range.end)) {
        result_its_.emplace(a, *result);
      } else {
        lazy_it_hooks_.insert(a);
        // The IT's instructions after a flag-setting one of them: their conditions come from
        // the flags as they are then, which a hook on each reads (Block::kItFlags).
        const int count = 4 - std::countr_zero(static_cast<unsigned>(insn.it_firstcond_mask & 0x0F));
        bool flags_set = false;
        for (uint32_t b = a + 2, k = 0; k < static_cast<uint32_t>(count) && b < range.end; ++k) {
          const Instruction& in_it = instruction_at(b);
          if (flags_set) {
            flag_hooks_.insert(b);
            lazy_it_hooks_.insert(b);
          }
          flags_set |= in_it.sets_flags;
          b += in_it.size_bytes ? in_it.size_bytes : 2;
        }
      }
      a += insn.size_bytes ? insn.size_bytes : 2;
    }
  }
}

void Machine::add_operand_hook(uint32_t address) {
  if (!operand_hooks_.insert(address).second) return;
  uc_hook h;
  uc_hook_add(uc_, &h, UC_HOOK_CODE, reinterpret_cast<void*>(&Machine::on_operand_code), this,
              address, address);
}

bool Machine::hook_lazy_its(const Block& b) {
  bool added = false;
  for (const uint32_t address : b.lazy_hooks) {
    if (operand_hooks_.count(address)) continue;  // hooked already, for another block
    add_operand_hook(address);
    lazy_it_hooks_.erase(address);
    added = true;
  }
  if (!added) return false;
  // This block was translated without the hooks and has not executed yet (its block hook runs
  // first): drop the translation and re-enter the block, which Unicorn translates again, now
  // with the hooks. Writing PC from a hook makes Unicorn leave the current block at once.
  uc_ctl_remove_cache(uc_, b.start, b.start + b.size_bytes);
  uint32_t pc = b.start | 1u;
  uc_reg_write(uc_, UC_ARM_REG_PC, &pc);
  ++outcome_.retranslated_blocks;
  return true;
}

bool Machine::it_needs_hook(uint32_t address, uint32_t code_end) {
  // An IT's conditions are decided from the flags when its instructions are charged (at the
  // end of its translation block, or at a device access inside it). That is exact unless an
  // instruction after the IT, before control flow leaves straight-line code, sets the flags;
  // only such an IT needs a hook to read the flags as it executes.
  const Instruction& it = instruction_at(address);
  if (it.cls != InstrClass::kIt) return false;
  // Only a condition that changes a cost matters (see `charge`).
  bool matters = false;
  const int count = 4 - std::countr_zero(static_cast<unsigned>(it.it_firstcond_mask & 0x0F));
  for (int k = 0, b = address + 2; k < count && b < static_cast<int64_t>(code_end); ++k) {
    const Instruction& insn = instruction_at(b);
    matters |= timing::skip_changes_cost(insn) || timing_->skipped_behaves_as_nop();
    b += insn.size_bytes ? insn.size_bytes : 2;
  }
  if (!matters) return false;
  return !reaches_control_flow(address + 2, code_end,
                               [](const Instruction& insn) { return insn.sets_flags; });
}

bool Machine::reaches_control_flow(uint32_t address, uint32_t code_end,
                                   const std::function<bool(const Instruction&)>& stops) {
  uint32_t a = address;
  for (int n = 0; n < 256 && a < code_end; ++n) {
    const Instruction& insn = instruction_at(a);
    if (stops(insn)) return false;
    if (insn.cls == InstrClass::kBranch || insn.cls == InstrClass::kTableBranch || insn.writes_pc)
      return true;
    a += insn.size_bytes ? insn.size_bytes : 2;
  }
  return false;
}

std::optional<ItResult> Machine::readable_it_result(uint32_t address, uint32_t code_begin,
                                                   uint32_t code_end) {
  std::array<uint8_t, 8> after{};
  if (address + 2 + after.size() > code_end ||
      uc_mem_read(uc_, address + 2, after.data(), after.size()) != UC_ERR_OK)
    return std::nullopt;
  const uint8_t mask = instruction_at(address).it_firstcond_mask;
  auto result = it_result(mask, after);
  std::array<uint8_t, 4> before{};
  if (!result && address >= code_begin + before.size() &&
      uc_mem_read(uc_, address - before.size(), before.data(), before.size()) == UC_ERR_OK)
    result = compared_move_result(mask, before, after);
  if (!result) return std::nullopt;
  // Straight-line code ends the translation block at the latest: up to there nothing may
  // write the registers read, and nothing may raise an exception.
  const RegMask read = static_cast<RegMask>(
      1u << result->rd | (result->base == kNoBase ? 0u : 1u << result->base));
  const bool kept = reaches_control_flow(
      address + 2 + result->bytes, code_end, [read](const Instruction& insn) {
        return !insn.valid || (insn.regs_written & read) ||
               (insn.cls == InstrClass::kOther && !insn.nop);
      });
  return kept ? result : std::nullopt;
}

uint32_t Machine::flags_from_result(const ItResult& r) {
  uint32_t value = 0, base = 0;
  uc_reg_read(uc_, UC_ARM_REG_R0 + r.rd, &value);
  if (r.base != kNoBase) uc_reg_read(uc_, UC_ARM_REG_R0 + r.base, &base);
  value -= base;
  if (value == r.then_value) return r.then_flags;
  if (value == r.else_value || r.else_when_different) return r.else_flags;
  // Neither instruction's value: something wrote a register after all. The flags now are the
  // best left, and the count says it may be off.
  ++outcome_.inexact_events;
  uint32_t nzcv = 0;
  uc_reg_read(uc_, UC_ARM_REG_APSR, &nzcv);
  return nzcv;
}

util::Result<void> Machine::write_memory(uint32_t address, const std::vector<uint8_t>& bytes) {
  if (uc_mem_write(uc_, address, bytes.data(), bytes.size()) != UC_ERR_OK)
    return util::fail(fmt::format("cannot write {} bytes at {:#010x}", bytes.size(), address));
  // Forget decoded instructions in the written range: the bytes may be code.
  for (auto& region : code_regions_)
    for (uint64_t a = address & ~1u; a < uint64_t{address} + bytes.size(); a += 2)
      if (a - region.origin < region.length) region.decoded[(a - region.origin) >> 1] = nullptr;
  blocks_.clear();
  block_cache_.fill(nullptr);
  return {};
}

const Instruction& Machine::instruction_at(uint32_t address) {
  // Fast path: the region of the previous instruction, already decoded.
  if (last_region_ && address - last_region_->origin < last_region_->length) {
    const Instruction* slot = last_region_->decoded[(address - last_region_->origin) >> 1];
    if (slot) return *slot;
  }
  static const Instruction kUnknown{InstrClass::kOther, 2, 0, false, false, false};
  for (auto& region : code_regions_) {
    if (address - region.origin >= region.length) continue;
    const Instruction*& slot = region.decoded[(address - region.origin) >> 1];
    if (!slot) {
      std::array<uint8_t, 4> bytes{};
      const size_t available = std::min<uint64_t>(4, region.origin + uint64_t{region.length} - address);
      uc_mem_read(uc_, address, bytes.data(), available);
      const std::span<const uint8_t> code(bytes.data(), available);
      Instruction insn = decoder_.decode(address, code);
      if (insn.sets_flags)
        if (auto c = decode_compare(code); c && c->size_bytes == insn.size_bytes) {
          insn.compare_rn = c->rn;
          static_assert(kNoBase == Instruction::kNoRegister);
          insn.compare_rm = c->rm;
          insn.compare_imm = c->imm;
        }
      instructions_.push_back(insn);
      slot = &instructions_.back();
    }
    last_region_ = &region;
    return *slot;
  }
  return kUnknown;
}

void Machine::on_code(uc_engine*, uint64_t address, uint32_t, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const auto pc = static_cast<uint32_t>(address);
  if (self->current_) {
    // Cost of the previous instruction, now that its successor (branch outcome) is known.
    const Instruction& prev = *self->current_;
    uint32_t after = self->current_pc_ + prev.size_bytes;
    const bool may_branch = prev.cls == InstrClass::kBranch ||
                            prev.cls == InstrClass::kTableBranch || prev.writes_pc;
    // Instructions of an IT block that fail their condition fire no hook: they lie between
    // the previous instruction and this one, which did not branch. Each still takes a cycle.
    if (!may_branch && pc > after && pc - after <= 16) {
      self->charge(prev, self->current_pc_, after, true);
      ++self->outcome_.instructions;
      while (after < pc) {
        const Instruction& skipped = self->instruction_at(after);
        const uint32_t size = skipped.size_bytes ? skipped.size_bytes : 2;
        self->charge(skipped, after, after + size, false);
        ++self->outcome_.instructions;
        after += size;
      }
    } else {
      self->charge(prev, self->current_pc_, pc, true);
      ++self->outcome_.instructions;
    }
  }
  self->maybe_start_untimed(pc);
  self->publish_count();
  self->current_pc_ = pc;
  self->current_ = &self->instruction_at(pc);
  if (timing::is_fpu(self->current_->cls) && self->fpu_denied(pc)) return;
  if (self->observer_) uc_reg_read(self->uc_, UC_ARM_REG_SP, &self->block_sp_);
  if (self->current_->needs_operand_values && !self->untimed_) {
    // Divides and long multiplies cost what their operands decide; read them before the
    // instruction overwrites them (timing::CoreTimingModel::set_operand_values).
    const auto values = self->read_operands(*self->current_);
    self->timing_->set_operand_values(values[0], values[1]);
  }
  if (self->outcome_.cycles >= self->budget_ && !self->stopping_)
    self->stop_with_fault("budget-exhausted", pc,
                          fmt::format("the cycle budget of {} cycles ran out", self->reported_budget_));
}

Machine::Block& Machine::block_at(uint32_t start, uint32_t size_bytes) {
  // A direct-mapped cache in front of the map: most block executions hit it.
  Block*& cached = block_cache_[(start >> 1) & (kBlockCacheSize - 1)];
  if (cached && cached->start == start && cached->size_bytes == size_bytes) return *cached;
  cached = &build_block(start, size_bytes);
  return *cached;
}

Machine::Block& Machine::build_block(uint32_t start, uint32_t size_bytes) {
  auto [it, inserted] = blocks_.try_emplace(start);
  Block& b = it->second;
  if (inserted || b.size_bytes != size_bytes) {
    b = Block{};
    b.id = next_block_id_++;
    b.start = start;
    b.size_bytes = size_bytes;
    b.memoizable = true;
    int it_left = 0;         // instructions of an IT block still to come in this block
    bool it_flags = false;   // ... after a flag-setting instruction of it
    std::vector<uint32_t> unhooked_moves;  // compared moves without their CMP before them
    for (uint32_t pc = start; pc < start + size_bytes;) {
      const Instruction& insn = instruction_at(pc);
      uint8_t kind = 0;
      if (it_left > 0) {
        if (it_flags && flag_hooks_.count(pc)) kind |= Block::kItFlags;
        --it_left;
        it_flags |= insn.sets_flags;
      } else if (b.instructions.size() < 3 && flag_hooks_.count(pc)) {
        // An IT begun in the previous block (Unicorn ends blocks at 1 KiB page boundaries),
        // whose instructions here come after its flag-setting one (install_operand_hooks).
        kind |= Block::kItFlags;
      }
      if (insn.cls == InstrClass::kIt) {
        kind |= Block::kIt;
        it_left = 4 - std::countr_zero(static_cast<unsigned>(insn.it_firstcond_mask & 0x0F));
        it_flags = false;
        // Split by the block's end, the IT's conditions come from the flags at the end (no
        // flag-setting instruction can follow it in this block), as for any unhooked IT.
        if (auto r = result_its_.find(pc);
            r != result_its_.end() && pc + 2 + r->second.bytes <= start + size_bytes) {
          // A compared move tells only after its CMP: where this block starts at the IT (a
          // branch to it), the IT waits for its hook (plan_lazy_hooks).
          const uint8_t cmp = r->second.compare_bytes;
          if (cmp == 0 || (!b.addresses.empty() && b.addresses.back() == pc - cmp)) {
            kind |= Block::kItResult;
            b.it_results.push_back({pc, &r->second});
          } else if (!operand_hooks_.count(pc)) {
            unhooked_moves.push_back(pc);
          }
        }
      }
      if (timing_->uses_operand_values(insn)) {
        kind |= Block::kOperands;
        if (!operand_hooks_.count(pc)) kind |= Block::kUnhookedOperands;
      }
      b.instructions.push_back(&insn);
      b.addresses.push_back(pc);
      b.kinds.push_back(kind);
      b.special |= kind != 0;
      b.unhooked |= (kind & Block::kUnhookedOperands) != 0;
      b.memoizable &= !timing_->cost_reads_operands(insn);
      // SP writes: PUSH/POP/LDM/STM with SP writeback, ADD/SUB SP (Capstone lists SP), and
      // system instructions (MSR MSP), conservatively.
      b.writes_sp |= (insn.regs_written & (1u << 13)) != 0 ||
                     (insn.cls == InstrClass::kOther && !insn.nop);
      if (b.first_fpu < 0 && timing::is_fpu(insn.cls))
        b.first_fpu = static_cast<int32_t>(b.instructions.size() - 1);
      pc += insn.size_bytes ? insn.size_bytes : 2;
    }
    b.end = b.addresses.empty() ? start
                                : b.addresses.back() + b.instructions.back()->size_bytes;
    if (!unhooked_moves.empty() || !lazy_it_hooks_.empty()) plan_lazy_hooks(b, unhooked_moves);
    // A special block whose only specials are ITs: its costs follow from the state and which
    // instructions executed (charge_pending memoizes on both).
    b.it_memoizable = b.special && b.memoizable && !b.unhooked &&
                      std::none_of(b.kinds.begin(), b.kinds.end(),
                                   [](uint8_t k) { return (k & Block::kOperands) != 0; });
    b.memoizable &= !b.special;
  }
  return b;
}

void Machine::plan_lazy_hooks(Block& b, std::span<const uint32_t> unhooked_moves) {
  // An IT whose flags some later instruction of the block overwrites needs them as it runs.
  // When the last flag setter before it in this block is a CMP outside any IT whose operands
  // no earlier instruction of the block writes, they are the CMP's of the values the operands
  // had as the block entered, which the block hook reads (kItCompare); otherwise it gets its
  // hook before the block first runs, as does every other instruction that waits for one.
  RegMask written = 0;
  bool unknown_writes = false;  // a system instruction before: registers may change unseen
  std::optional<Comparison> compare;  // the last flag setter, if such a CMP
  int it_left = 0;
  for (size_t i = 0; i < b.instructions.size(); ++i) {
    const Instruction& insn = *b.instructions[i];
    const uint32_t pc = b.addresses[i];
    const bool in_it = it_left > 0;
    if (in_it) --it_left;
    const bool waits =
        (lazy_it_hooks_.count(pc) && !(b.kinds[i] & Block::kItResult)) ||
        std::find(unhooked_moves.begin(), unhooked_moves.end(), pc) != unhooked_moves.end();
    if (waits) {
      bool told = false;
      if (insn.cls == InstrClass::kIt && compare && !unknown_writes) {
        // Not for an IT with a flag setter inside it (its later instructions are hooked).
        told = true;
        for (size_t k = i + 1; k < b.addresses.size() && k <= i + 4; ++k)
          told &= !flag_hooks_.count(b.addresses[k]);
      }
      if (told) {
        b.kinds[i] |= Block::kItCompare;
        b.it_compares.push_back({pc, *compare});
        for (const uint8_t r : {compare->rn, compare->rm})
          if (r != kNoBase && std::find(b.entry_registers.begin(), b.entry_registers.end(), r) ==
                                  b.entry_registers.end())
            b.entry_registers.push_back(r);
      } else {
        b.lazy_hooks.push_back(pc);
      }
    }
    if (insn.sets_flags) {
      compare.reset();
      const uint8_t rn = insn.compare_rn, rm = insn.compare_rm;
      if (!in_it && rn <= 12 && (rm == kNoBase || rm <= 12) && !(written & (1u << rn)) &&
          (rm == kNoBase || !(written & (1u << rm))))
        compare = Comparison{rn, rm, insn.compare_imm, insn.size_bytes};
    }
    written |= insn.regs_written;
    unknown_writes |= !insn.valid || (insn.cls == InstrClass::kOther && !insn.nop);
    if (insn.cls == InstrClass::kIt)
      it_left = 4 - std::countr_zero(static_cast<unsigned>(insn.it_firstcond_mask & 0x0F));
  }
}

std::array<uint32_t, 2> Machine::read_operands(const Instruction& insn) const {
  std::array<uint32_t, 2> values{0, 0};
  if (insn.cls == InstrClass::kIt) {
    uc_reg_read(uc_, UC_ARM_REG_APSR, &values[0]);
    return values;
  }
  for (int k = 0; k < 2; ++k) {
    const uint8_t n = insn.operand_regs[k];
    const int reg = n <= 12 ? UC_ARM_REG_R0 + n : (n == 13 ? UC_ARM_REG_SP : UC_ARM_REG_LR);
    uc_reg_read(uc_, reg, &values[k]);
  }
  return values;
}

uint32_t Machine::mmio_pc() const {
  return mode_ == HookMode::kPerInstruction ? current_pc_ : device_access_pc_;
}

uint32_t Machine::executing_pc() const {
  return mode_ == HookMode::kPerInstruction ? current_pc_ : read_pc();
}

uint32_t Machine::read_core_register(unsigned index) const {
  if (index > 15) return 0;
  const int id = index <= 12 ? UC_ARM_REG_R0 + static_cast<int>(index)
                 : index == 13 ? UC_ARM_REG_SP
                 : index == 14 ? UC_ARM_REG_LR
                               : UC_ARM_REG_PC;
  uint32_t value = 0;
  uc_reg_read(uc_, id, &value);
  return index == 15 ? value & ~1u : value;
}

uint32_t Machine::read_pc() const {
  uint32_t pc = 0;
  uc_reg_read(uc_, UC_ARM_REG_PC, &pc);
  return pc & ~1u;
}

void Machine::charge_pending(size_t index, uint32_t next_address) {
  Block* b = pending_;
  if (!b) return;
  index = std::min(index, b->instructions.size());
  if (pending_charged_ >= index) return;
  if (untimed_) {  // counting only (set_untimed_from): IT-skipped or not
    count_untimed(index - pending_charged_);
    pending_charged_ = index;
    return;
  }
  const size_t n = b->instructions.size();
  if (memoize_ && b->memoizable && !b->special && !it_block_.active() && pending_charged_ == 0 &&
      index == n) {
    charge_memoized(*b, next_address);
    return;
  }
  if (!b->special && !it_block_.active()) {
    // Fast path: nothing conditional or data-dependent in the block.
    const size_t first = pending_charged_;
    if (!observer_) {
      for (size_t i = first; i < index; ++i) {
        const uint32_t next = i + 1 < n ? b->addresses[i + 1] : next_address;
        outcome_.cycles += timing_->cycles(*b->instructions[i], b->addresses[i], next);
      }
    } else {
      run_cycles_.clear();
      uint64_t total = 0;
      for (size_t i = first; i < index; ++i) {
        const uint32_t next = i + 1 < n ? b->addresses[i + 1] : next_address;
        run_cycles_.push_back(timing_->cycles(*b->instructions[i], b->addresses[i], next));
        total += run_cycles_.back();
      }
      outcome_.cycles += total;
      report_run(*b, first, index, run_cycles_.data(), total,
                 index < n ? b->addresses[index] : next_address);
      if (index == n) update_block_sp(*b);
    }
    outcome_.instructions += index - first;
    pending_charged_ = index;
    return;
  }
  // Special: first decide which instructions execute (the IT conditions, from the flags the
  // hooks read or the registers tell) and the operand values the model needs, then charge.
  const size_t first = pending_charged_;
  executes_.clear();
  operand_values_.clear();
  for (size_t i = first; i < index; ++i) {
    const Instruction& insn = *b->instructions[i];
    const uint32_t pc = b->addresses[i];
    const uint32_t next = i + 1 < n ? b->addresses[i + 1] : next_address;
    if (it_block_.active()) {
      // A flag-setting instruction of this IT ran before (kItFlags): the condition is decided
      // from the flags its hook read. Unicorn runs the code hook of an instruction inside an IT
      // block only when its condition passes, so no reading means it failed.
      bool flags_read = true;
      if (b->kinds[i] & Block::kItFlags) {
        flags_read = false;
        for (const auto& [address, nzcv] : pending_flags_)
          if (address == pc) it_block_.set_flags(nzcv), flags_read = true;
      }
      ItBlock probe = it_block_;
      if (!(it_block_.next_executes() && flags_read)) {
        executes_.push_back(0);
        continue;
      }
      // A flag-setting instruction inside the block changes the later conditions: the next
      // instruction's hook reads the flags (kItFlags), also when that instruction starts the
      // next translation block (Unicorn ends a block at a 1 KiB page boundary, IT or not);
      // without one (an image without mapping symbols) this mode cannot see them, and counts it.
      probe.next_executes();
      const bool next_reads_flags =
          i + 1 < n ? (b->kinds[i + 1] & Block::kItFlags) != 0 : flag_hooks_.count(next) != 0;
      if (insn.sets_flags && probe.active() && !next_reads_flags) ++outcome_.inexact_events;
    }
    if (b->kinds[i] & (Block::kOperands | Block::kIt | Block::kUnhookedOperands)) {
      std::array<uint32_t, 2> values{0, 0};
      bool found = false;
      for (const auto& [address, v] : pending_operands_)
        if (address == pc) values = v, found = true;
      if (b->kinds[i] & Block::kOperands) {
        operand_values_.push_back({i, values});
      } else {
        // No hook: no flag-setting instruction has run since the IT (it_needs_hook), or its
        // outcome is in a register (readable_it_result).
        if (!found && (b->kinds[i] & Block::kItResult)) {
          for (const auto& [address, result] : b->it_results)
            if (address == pc) values[0] = flags_from_result(*result);
        } else if (!found && (b->kinds[i] & Block::kItCompare)) {
          for (const auto& [address, c] : b->it_compares)
            if (address == pc)
              values[0] = compare_flags(entry_values_[c.rn],
                                        c.rm == kNoBase ? c.imm : entry_values_[c.rm]);
        } else if (!found) {
          uc_reg_read(uc_, UC_ARM_REG_APSR, &values[0]);
        }
        it_block_.start(insn.it_firstcond_mask, values[0]);
      }
    }
    executes_.push_back(1);
  }

  // The costs of a block run whole whose costs read no operand values follow from the timing
  // state, where it left and which instructions executed: memoized as for other blocks.
  const bool memo = memoize_ && b->it_memoizable && first == 0 && index == n;
  const uint64_t key =
      memo ? timing_->state_key(b->start) << 1 | (next_address != b->end ? 1u : 0u) : 0;
  if (memo)
    for (size_t k = 0; k < b->memo_count; ++k) {
      const Block::Memo& m = b->memo[k];
      if (m.key != key || m.executes != executes_) continue;
      ++outcome_.memoized_blocks;
      outcome_.cycles += m.cycles;
      timing_->set_state(m.exit);
      if (observer_) report_runs(*b, 0, n, m.instruction_cycles.data(), next_address);
      outcome_.instructions += n;
      pending_charged_ = n;
      return;
    }

  // Charge, then report to the observer what ran (report_runs), with the same costs a memo
  // hit reports.
  instruction_cycles_.clear();
  uint64_t total = 0;
  size_t operand = 0;
  for (size_t i = first; i < index; ++i) {
    const Instruction& insn = *b->instructions[i];
    const uint32_t pc = b->addresses[i];
    const uint32_t next = i + 1 < n ? b->addresses[i + 1] : next_address;
    const bool executed = executes_[i - first] != 0;
    if (executed && operand < operand_values_.size() && operand_values_[operand].first == i) {
      const auto& values = operand_values_[operand++].second;
      timing_->set_operand_values(values[0], values[1]);
    }
    const uint32_t c = charge(insn, pc, next, executed, /*notify=*/false);
    instruction_cycles_.push_back(c);
    total += c;
  }
  if (observer_) report_runs(*b, first, index, instruction_cycles_.data(), next_address);
  outcome_.instructions += index - pending_charged_;
  pending_charged_ = index;
  if (memo) {
    size_t slot = b->memo_count;
    if (b->memo_count < Block::kMemoEntries) {
      ++b->memo_count;
    } else {  // full: replace the oldest entry
      slot = b->memo_next;
      b->memo_next = static_cast<uint8_t>((b->memo_next + 1) % Block::kMemoEntries);
    }
    b->memo[slot] = {key, total, timing_->state(), instruction_cycles_, executes_};
  }
}

void Machine::report_runs(const Block& b, size_t first, size_t end, const uint32_t* cycles,
                          uint32_t next_address) {
  // Runs of executed instructions go together (report_run); each IT-skipped one alone.
  const size_t n = b.instructions.size();
  auto next_of = [&](size_t i) { return i + 1 < n ? b.addresses[i + 1] : next_address; };
  size_t run_first = first;
  uint64_t run_total = 0;
  for (size_t i = first; i < end; ++i) {
    const uint32_t c = cycles[i - first];
    if (executes_[i - first]) {
      run_total += c;
      continue;
    }
    const uint32_t pc = b.addresses[i];
    if (i > run_first)
      report_run(b, run_first, i, cycles + (run_first - first), run_total, pc);
    observer_->on_instruction(*b.instructions[i], pc, next_of(i), c, false, block_sp_);
    run_first = i + 1;
    run_total = 0;
  }
  if (end > run_first)
    report_run(b, run_first, end, cycles + (run_first - first), run_total, next_of(end - 1));
  if (end == n) update_block_sp(b);
}

void Machine::charge_memoized(Block& b, uint32_t next_address) {
  const uint64_t key = timing_->state_key(b.start) << 1 | (next_address != b.end ? 1u : 0u);
  const size_t n = b.instructions.size();
  outcome_.instructions += n;
  pending_charged_ = n;
  auto next_of = [&](size_t i) { return i + 1 < n ? b.addresses[i + 1] : next_address; };
  size_t same_key = Block::kMemoEntries;  // an entry of this key without per-instruction costs
  for (size_t k = 0; k < b.memo_count; ++k) {
    Block::Memo& m = b.memo[k];
    if (m.key != key) continue;
    if (observer_ && m.instruction_cycles.size() != n) {  // filled while no observer watched
      same_key = k;
      continue;
    }
    ++outcome_.memoized_blocks;
    outcome_.cycles += m.cycles;
    timing_->set_state(m.exit);
    if (observer_) {
      report_run(b, 0, n, m.instruction_cycles.data(), m.cycles, next_address);
      update_block_sp(b);
    }
    return;
  }
  uint64_t cycles = 0;
  std::vector<uint32_t> instruction_cycles;
  if (observer_) instruction_cycles.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t c = timing_->cycles(*b.instructions[i], b.addresses[i], next_of(i));
    cycles += c;
    if (observer_) instruction_cycles.push_back(c);
  }
  if (observer_) {
    report_run(b, 0, n, instruction_cycles.data(), cycles, next_address);
    update_block_sp(b);
  }
  outcome_.cycles += cycles;
  size_t slot = b.memo_count;
  if (same_key < Block::kMemoEntries) {
    slot = same_key;  // the same costs, now with each instruction's
  } else if (b.memo_count < Block::kMemoEntries) {
    ++b.memo_count;
  } else {  // full: replace the oldest entry
    slot = b.memo_next;
    b.memo_next = static_cast<uint8_t>((b.memo_next + 1) % Block::kMemoEntries);
  }
  b.memo[slot] = {key, cycles, timing_->state(), std::move(instruction_cycles), {}};
}

void Machine::update_block_sp(const Block& b) {
  // SP after a block that writes it; a block that does not leaves the SP it started with.
  if (b.writes_sp) uc_reg_read(uc_, UC_ARM_REG_SP, &block_sp_);
}

void Machine::report_run(const Block& b, size_t first, size_t end, const uint32_t* cycles,
                         uint64_t total, uint32_t next) {
  ExecutionObserver::InstructionRun run;
  run.instructions = b.instructions.data() + first;
  run.addresses = b.addresses.data() + first;
  run.cycles = cycles;
  run.count = end - first;
  run.total_cycles = total;
  run.next = next;
  run.sp = block_sp_;
  run.block = b.id;
  run.first = static_cast<uint32_t>(first);
  run.fallthrough = end < b.addresses.size() ? b.addresses[end] : b.end;
  run.may_write_sp = b.writes_sp;
  observer_->on_instructions(run);
}

uint32_t Machine::charge(const Instruction& insn, uint32_t pc, uint32_t next, bool executed,
                        bool notify) {
  // An instruction that fails its IT condition: timing::charged_instruction.
  const Instruction& charged = timing::charged_instruction(insn, executed, *timing_);
  const uint32_t c = untimed_ ? 1 : timing_->cycles(charged, pc, next);
  outcome_.cycles += c;
  if (untimed_) ++outcome_.untimed_instructions;
  if (observer_ && notify) observer_->on_instruction(insn, pc, next, c, executed, block_sp_);
  return c;
}

void Machine::charge_up_to(uint32_t pc, bool including) {
  if (!pending_) return;
  const auto& addrs = pending_->addresses;
  size_t i = pending_charged_;
  while (i < addrs.size() && addrs[i] != pc) ++i;
  if (i == addrs.size()) return;  // not in the pending block: nothing to attribute
  if (including) ++i;
  charge_pending(i, i < addrs.size() ? addrs[i] : pc + pending_->instructions[i - 1]->size_bytes);
}

void Machine::on_block(uc_engine*, uint64_t address, uint32_t size, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const auto start = static_cast<uint32_t>(address);
  if (self->untimed_) {
    // Counting only (set_untimed_from): what is left of the previous block; the block's
    // hooks wait until it first runs timed.
    if (self->pending_)
      self->count_untimed(self->pending_->instructions.size() - self->pending_charged_);
    Block& b = self->block_at(start, size);
    self->publish_count();
    self->pending_ = &b;
    self->pending_charged_ = 0;
    self->device_cursor_ = 0;
    self->current_pc_ = start;
    self->check_block_limits(b, start);
    return;
  }
  // The previous block ran to its end: charge what is left of it, now that its last
  // instruction's successor is known.
  if (self->pending_) self->charge_pending(self->pending_->instructions.size(), start);
  self->maybe_start_untimed(start);
  Block& b = self->block_at(start, size);
  if (!b.hooks_checked) {
    b.hooks_checked = true;
    if (!b.lazy_hooks.empty() && self->hook_lazy_its(b)) {
      self->pending_ = nullptr;  // charged; the re-entered block's hook takes it from here
      return;
    }
  }
  self->publish_count();
  self->pending_operands_.clear();
  self->pending_flags_.clear();
  self->pending_ = &b;
  self->pending_charged_ = 0;
  self->device_cursor_ = 0;
  self->current_pc_ = start;
  for (const uint8_t r : b.entry_registers)
    uc_reg_read(self->uc_, UC_ARM_REG_R0 + r, &self->entry_values_[r]);
  // A data-dependent instruction without an operand hook (no mapping symbols): read its
  // operands now; exact unless an earlier instruction of this block writes them.
  if (b.unhooked && !self->untimed_) {
    RegMask written = 0;
    for (size_t i = 0; i < b.instructions.size(); ++i) {
      const Instruction& insn = *b.instructions[i];
      if (b.kinds[i] & Block::kUnhookedOperands) {
        if (written & ((1u << insn.operand_regs[0]) | (1u << insn.operand_regs[1])))
          ++self->outcome_.inexact_events;
        self->pending_operands_.push_back({b.addresses[i], self->read_operands(insn)});
      }
      written |= insn.regs_written;
    }
  }
  self->check_block_limits(b, start);
}

void Machine::check_block_limits(const Block& b, uint32_t start) {
  if (outcome_.cycles >= budget_ && !stopping_)
    stop_with_fault("budget-exhausted", start,
                    fmt::format("the cycle budget of {} cycles ran out", reported_budget_));
  if (b.first_fpu >= 0) fpu_denied(b.addresses[static_cast<size_t>(b.first_fpu)]);
}

bool Machine::fpu_denied(uint32_t pc) {
  if (scs_.fpu_access_enabled() || stopping_) return false;
  stop_with_fault(
      "nocp-usagefault", pc,
      fmt::format("floating-point instruction at 0x{:08x} while CPACR (0x{:08x}) does not enable "
                  "CP10/CP11: on silicon a NOCP UsageFault. Enable full access to CP10 and CP11 "
                  "(CPACR |= 0xF << 20, then DSB and ISB) before the first floating-point "
                  "instruction",
                  pc, scs_.cpacr()));
  return true;
}

uint32_t Machine::accessing_pc(uint32_t address) {
  if (mode_ != HookMode::kBlock || !pending_) return current_pc_;
  if (const auto index = locate_access(address)) return pending_->addresses[*index];
  ++outcome_.inexact_events;
  return read_pc();
}

void Machine::note_device_access(uint32_t address) {
  // Unicorn does not update PC inside a block (the registers are current), so the accessing
  // instruction is found from them: the next instruction of the block whose memory operand
  // covers `address`. (A memory hook would see no better PC, and would slow every access.)
  if (mode_ != HookMode::kBlock || !pending_) return;
  const auto index = locate_access(address);
  if (!index) {
    ++outcome_.inexact_events;
    device_access_pc_ = pending_->addresses[std::min(pending_charged_, pending_->addresses.size() - 1)];
    return;
  }
  const Instruction& insn = *pending_->instructions[*index];
  // A load/store multiple or double makes several accesses; any other instruction one.
  const bool several = insn.cls == InstrClass::kLoadMultiple ||
                       insn.cls == InstrClass::kStoreMultiple ||
                       insn.cls == InstrClass::kLoadDouble || insn.cls == InstrClass::kStoreDouble;
  device_cursor_ = *index + (several ? 0 : 1);
  device_access_pc_ = pending_->addresses[*index];
  charge_up_to(device_access_pc_, false);
}

std::optional<size_t> Machine::locate_access(uint32_t address) const {
  auto reg = [&](uint8_t n) {
    uint32_t v = 0;
    const int id = n <= 12 ? UC_ARM_REG_R0 + n : (n == 13 ? UC_ARM_REG_SP : UC_ARM_REG_LR);
    uc_reg_read(uc_, id, &v);
    return v;
  };
  const Block& b = *pending_;
  for (size_t i = device_cursor_; i < b.instructions.size(); ++i) {
    const Instruction& insn = *b.instructions[i];
    if (insn.mem_span_bytes == 0 || insn.mem_base > 14) continue;  // no access, or literal
    uint32_t ea = reg(insn.mem_base) + static_cast<uint32_t>(insn.mem_disp);
    if (insn.mem_index != Instruction::kNoRegister) {
      const uint32_t offset = reg(insn.mem_index) << insn.mem_shift;
      ea = insn.mem_index_subtract ? ea - offset : ea + offset;
    }
    const uint32_t low = insn.mem_descending ? ea - insn.mem_span_bytes : ea;
    if (address - low < insn.mem_span_bytes) return i;
  }
  return std::nullopt;
}

void Machine::on_operand_code(uc_engine* uc, uint64_t address, uint32_t, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  if (self->untimed_) return;  // nothing to decide costs for
  const auto pc = static_cast<uint32_t>(address);
  const Instruction& insn = self->instruction_at(pc);
  if (self->flag_hooks_.count(pc)) {
    uint32_t nzcv = 0;
    uc_reg_read(uc, UC_ARM_REG_APSR, &nzcv);
    self->pending_flags_.push_back({pc, nzcv});
    if (insn.cls != InstrClass::kIt && !self->timing_->uses_operand_values(insn)) return;
  }
  self->pending_operands_.push_back({pc, self->read_operands(insn)});
}

void Machine::on_block_count(uc_engine*, uint64_t address, uint32_t size, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const auto start = static_cast<uint32_t>(address);
  const Block& b = self->block_at(start, size);
  const uint64_t count = b.instructions.size();
  self->outcome_.instructions += count;
  self->outcome_.cycles += count;
  self->publish_count();
  self->current_pc_ = start;
  self->check_block_limits(b, start);
}

void Machine::stop_with_fault(std::string kind, uint32_t pc, std::string detail) {
  if (!outcome_.fault) {
    model::Fault f;
    f.kind = std::move(kind);
    f.pc = pc;
    f.function = image_ ? image_->describe_address(pc) : "";
    f.detail = std::move(detail);
    outcome_.fault = std::move(f);
  }
  if (!stopping_) stop_pc_ = pc;
  stopping_ = true;
  uc_emu_stop(uc_);
}

bool Machine::on_unmapped(uc_engine* uc, uc_mem_type type, uint64_t address, int size, int64_t,
                          void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const auto addr = static_cast<uint32_t>(address);
  std::string kind;
  switch (type) {
    case UC_MEM_READ_UNMAPPED: kind = "unmapped-read"; break;
    case UC_MEM_WRITE_UNMAPPED: kind = "unmapped-write"; break;
    case UC_MEM_FETCH_UNMAPPED: kind = "unmapped-fetch"; break;
    case UC_MEM_WRITE_PROT: kind = "write-to-read-only"; break;
    case UC_MEM_READ_PROT: kind = "read-protected"; break;
    case UC_MEM_FETCH_PROT: kind = "fetch-not-executable"; break;
    default: kind = "memory-fault"; break;
  }
  // The main stack sits at the bottom of RAM (boards/common/cortex_m.ld): an access just below
  // the lowest RAM address at or under SP is a stack overflow.
  uint32_t sp = 0;
  uc_reg_read(uc, UC_ARM_REG_SP, &sp);
  uint32_t ram_low = UINT32_MAX;
  for (const auto& r : self->board_.memory)
    if (r.kind == model::MemoryKind::kRam) ram_low = std::min(ram_low, r.origin);
  if (type != UC_MEM_FETCH_UNMAPPED && addr < ram_low && ram_low - addr <= 0x10000 &&
      sp <= ram_low + 0x100)
    kind = "stack-overflow";
  const uint32_t pc = type == UC_MEM_FETCH_UNMAPPED ? addr : self->accessing_pc(addr);
  self->stop_with_fault(kind, pc,
                        fmt::format("{}-byte access at {:#010x} (sp {:#010x})", size, addr, sp));
  return false;
}

bool Machine::in_board_memory(uint32_t address, size_t length, bool ram_only) const {
  for (const auto& r : board_.memory)
    if ((!ram_only || r.kind == model::MemoryKind::kRam) && address >= r.origin &&
        uint64_t{address} + length <= uint64_t{r.origin} + r.length_bytes)
      return true;
  return false;
}

bool Machine::serve_semihosting(uint32_t pc) {
  uint16_t insn = 0;
  if (!semihosting_ || uc_mem_read(uc_, pc, &insn, 2) != UC_ERR_OK ||
      insn != Semihosting::kTrapInstruction)
    return false;
  uint32_t r0 = 0, r1 = 0;
  uc_reg_read(uc_, UC_ARM_REG_R0, &r0);
  uc_reg_read(uc_, UC_ARM_REG_R1, &r1);
  const SemihostingResult r = semihosting_->call(r0, r1, outcome_.cycles);
  if (!r.error.empty()) {
    stop_with_fault("semihosting", pc, r.error);
  } else if (r.exit) {
    outcome_.exited = true;
    outcome_.exit_code = r.exit_code;
    stop_pc_ = pc;
    stopping_ = true;
    uc_emu_stop(uc_);
  } else {
    // Resume after the 2-byte BKPT. Unicorn's PC write takes bit 0 as the Thumb state: without
    // it the M-profile core is in ARM state and the next fetch fails (UC_ERR_INSN_INVALID).
    const uint32_t next = (pc + 2) | 1u;
    uc_reg_write(uc_, UC_ARM_REG_R0, &r.r0);
    uc_reg_write(uc_, UC_ARM_REG_PC, &next);
  }
  return true;
}

std::optional<uint32_t> Machine::read_memory_word(uint32_t address) const {
  uint32_t word = 0;
  if (uc_mem_read(uc_, address, &word, sizeof word) != UC_ERR_OK) return std::nullopt;
  return word;
}

void Machine::drop_isolation_snapshot() {
  if (isolation_ && isolation_->context) uc_context_free(isolation_->context);
  isolation_.reset();
}

bool Machine::serve_isolation(uint32_t pc) {
  constexpr uint16_t kIsolationTrap = 0xBEF5;  // BKPT 0xF5 (boards/common/sim_console.c)
  uint16_t insn = 0;
  if (uc_mem_read(uc_, pc, &insn, 2) != UC_ERR_OK || insn != kIsolationTrap) return false;
  // The trap is charged like any instruction, before the state is saved or replaced.
  if (mode_ == HookMode::kPerInstruction && current_) {
    charge(*current_, current_pc_, pc + 2, true);
    ++outcome_.instructions;
    current_ = nullptr;
  } else if (mode_ == HookMode::kBlock && pending_) {
    charge_up_to(pc, true);
    pending_ = nullptr;
  }
  uint32_t command = 0, slot = 0;
  uc_reg_read(uc_, UC_ARM_REG_R0, &command);
  uc_reg_read(uc_, UC_ARM_REG_R1, &slot);
  if (active_exception_) {
    stop_with_fault("isolation-in-handler", pc,
                    "isolation trap (BKPT 0xF5) inside an exception handler: the snapshot "
                    "covers thread mode only");
    return true;
  }
  const uint32_t next = (pc + 2) | 1u;
  if (command == 0) {
    if (isolation_) {
      stop_with_fault("isolation-twice", pc,
                      "a second isolation point (BKPT 0xF5, r0 = 0): an image has one");
      return true;
    }
    const uint32_t zero = 0;
    uc_reg_write(uc_, UC_ARM_REG_R0, &zero);
    // A PC write from a hook makes Unicorn 2.0.1 continue at the new PC even after
    // uc_emu_stop, so a run that pauses here leaves PC at the trap and `resume` starts at
    // `next` (restore_isolation sets the PC itself).
    if (!isolation_pauses_) uc_reg_write(uc_, UC_ARM_REG_PC, &next);
    IsolationSnapshot snap;
    if (uc_context_alloc(uc_, &snap.context) != UC_ERR_OK ||
        uc_context_save(uc_, snap.context) != UC_ERR_OK) {
      if (snap.context) uc_context_free(snap.context);
      stop_with_fault("isolation-failed", pc, "cannot save the CPU state (Unicorn context)");
      return true;
    }
    for (const auto& r : board_.memory) {
      if (r.kind != model::MemoryKind::kRam) continue;
      std::vector<uint8_t> bytes(r.length_bytes);
      if (uc_mem_read(uc_, r.origin, bytes.data(), bytes.size()) != UC_ERR_OK) {
        uc_context_free(snap.context);
        stop_with_fault("isolation-failed", pc,
                        fmt::format("cannot read RAM region '{}' for the snapshot", r.name));
        return true;
      }
      snap.ram.emplace_back(r.origin, std::move(bytes));
    }
    snap.scs = scs_;
    snap.timing = timing_->clone();
    snap.resume_pc = next;
    isolation_ = std::move(snap);
    outcome_.isolation_snapshot = true;
    if (observer_) observer_->on_snapshot();
    if (isolation_pauses_) pause_at(IsolationPause{});
    return true;
  }
  if (command != 1 || !isolation_) {
    stop_with_fault("isolation-misuse", pc,
                    command != 1 ? fmt::format("isolation trap (BKPT 0xF5) with unknown command "
                                               "{} in r0 (0 = snapshot, 1 = restore)",
                                               command)
                                 : std::string("isolation restore (BKPT 0xF5, r0 = 1) without a "
                                               "snapshot taken first"));
    return true;
  }
  if (isolation_pauses_) {
    pause_at(IsolationPause{.restore = true, .slot = slot});
    return true;
  }
  restore_isolation(slot);
  return true;
}

void Machine::pause_at(IsolationPause pause) {
  outcome_.pause = pause;
  stopping_ = true;
  uc_emu_stop(uc_);
}

bool Machine::restore_isolation(uint32_t slot) {
  if (!isolation_) return false;
  // Back to the snapshot: CPU, RAM (but the persistent range), system control, timing model.
  // CYCCNT keeps counting, so the firmware's readings stay monotonic across operations.
  uc_context_restore(uc_, isolation_->context);
  uc_reg_write(uc_, UC_ARM_REG_R0, &slot);
  uc_reg_write(uc_, UC_ARM_REG_PC, &isolation_->resume_pc);
  for (const auto& [origin, bytes] : isolation_->ram) {
    const uint64_t end = uint64_t{origin} + bytes.size();
    const bool persist_inside = persist_end_ > persist_start_ && persist_start_ >= origin &&
                                persist_end_ <= end;
    const uint32_t cut_from = persist_inside ? persist_start_ - origin : static_cast<uint32_t>(bytes.size());
    const uint32_t cut_to = persist_inside ? persist_end_ - origin : static_cast<uint32_t>(bytes.size());
    uc_mem_write(uc_, origin, bytes.data(), cut_from);
    if (cut_to < bytes.size())
      uc_mem_write(uc_, origin + cut_to, bytes.data() + cut_to, bytes.size() - cut_to);
  }
  const uint32_t cyccnt = scs_.cycle_counter_at(outcome_.cycles);
  scs_ = *isolation_->scs;
  scs_.continue_cycle_counter(cyccnt, outcome_.cycles);
  timing_ = isolation_->timing->clone();
  untimed_ = false;
  it_block_.clear();
  pending_operands_.clear();
  pending_flags_.clear();
  uc_reg_read(uc_, UC_ARM_REG_SP, &block_sp_);
  ++outcome_.isolation_restores;
  if (observer_) observer_->on_restore();
  return true;
}

uint32_t Machine::cycle_counter() const { return scs_.cycle_counter_at(outcome_.cycles); }

void Machine::set_cycle_counter(uint32_t value) {
  scs_.continue_cycle_counter(value, outcome_.cycles);
}

util::Result<std::vector<uint8_t>> Machine::read_memory(uint32_t address, size_t size) const {
  std::vector<uint8_t> bytes(size);
  if (size != 0 && uc_mem_read(uc_, address, bytes.data(), size) != UC_ERR_OK)
    return util::fail(fmt::format("cannot read {} bytes of simulated memory at {:#010x}", size,
                                  address));
  return bytes;
}

void Machine::enter_svc() {
  // The SVC is charged first: in the ordered stream the entry comes after it. Unicorn leaves
  // PC at the return address, after the 2-byte SVC.
  const uint32_t return_address = read_pc();
  const uint32_t svc_pc = return_address - 2;
  if (mode_ == HookMode::kPerInstruction && current_) {
    charge(*current_, current_pc_, return_address, true);
    ++outcome_.instructions;
    current_ = nullptr;
  } else if (mode_ == HookMode::kBlock && pending_) {
    charge_up_to(svc_pc, true);
    pending_ = nullptr;
  }
  uint32_t control = 0, ipsr = 0, sp = 0, xpsr = 0;
  uc_reg_read(uc_, UC_ARM_REG_CONTROL, &control);
  uc_reg_read(uc_, UC_ARM_REG_IPSR, &ipsr);
  uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
  uc_reg_read(uc_, UC_ARM_REG_XPSR, &xpsr);
  if (active_exception_ || (ipsr & kXpsrIpsr) != 0)
    return stop_with_fault("svc-in-handler", svc_pc,
                           fmt::format("SVC inside the handler of exception {}: the core would "
                                       "escalate to HardFault, which the simulator does not model",
                                       ipsr & kXpsrIpsr));
  if (control & kControlSpsel)
    return stop_with_fault("svc-process-stack", svc_pc,
                           "SVC from thread mode on the process stack (CONTROL.SPSEL = 1): the "
                           "simulator stacks exception frames on the main stack only");
  if (control & kControlFpca)
    return stop_with_fault("svc-fp-context", svc_pc,
                           "SVC with an active floating-point context (CONTROL.FPCA = 1): the "
                           "extended frame and lazy FP stacking are not modelled");
  // B1.5.6 PushStack: an 8-byte aligned frame (CCR.STKALIGN, fixed to 1 on ARMv8-M); a
  // realignment is recorded in bit 9 of the stacked xPSR.
  const bool realign = ((sp - kBasicFrameBytes) & 4u) != 0;
  const uint32_t frame = (sp - kBasicFrameBytes) & ~7u;
  std::array<uint32_t, 8> words{};
  for (int r = 0; r < 4; ++r) uc_reg_read(uc_, UC_ARM_REG_R0 + r, &words[static_cast<size_t>(r)]);
  uc_reg_read(uc_, UC_ARM_REG_R12, &words[4]);
  uc_reg_read(uc_, UC_ARM_REG_LR, &words[5]);
  words[6] = return_address;
  words[7] = (xpsr & ~kXpsrStackAligned) | (realign ? kXpsrStackAligned : 0u);
  if (!in_board_memory(frame, kBasicFrameBytes, true) ||
      uc_mem_write(uc_, frame, words.data(), kBasicFrameBytes) != UC_ERR_OK)
    return stop_with_fault("stack-overflow", svc_pc,
                           fmt::format("SVC entry: the {}-byte exception frame at {:#010x} "
                                       "(sp {:#010x}) is outside RAM",
                                       kBasicFrameBytes, frame, sp));
  const uint32_t vector = scs_.vector_table_address() + 4 * kSvcallException;
  uint32_t handler = 0;
  if (!in_board_memory(vector, 4, false) || uc_mem_read(uc_, vector, &handler, 4) != UC_ERR_OK ||
      (handler & 1u) == 0)
    return stop_with_fault("invalid-vector", svc_pc,
                           fmt::format("SVC entry: the SVCall vector at {:#010x} (VTOR + 44) "
                                       "holds {:#010x}, not a Thumb address in memory",
                                       vector, handler));
  // Handler mode: IPSR = 11, the IT state cleared; LR = EXC_RETURN.
  const uint32_t handler_xpsr = (xpsr & ~(kXpsrIt | kXpsrIpsr)) | kSvcallException;
  const uint32_t exc_return = kExcReturnThreadMain;
  uc_reg_write(uc_, UC_ARM_REG_SP, &frame);
  uc_reg_write(uc_, UC_ARM_REG_LR, &exc_return);
  uc_reg_write(uc_, UC_ARM_REG_XPSR, &handler_xpsr);
  uc_reg_write(uc_, UC_ARM_REG_PC, &handler);
  active_exception_ = ActiveException{kSvcallException, frame};
  block_sp_ = frame;
  if (mode_ == HookMode::kBlockCountOnly || untimed_) return;
  const uint32_t cycles = timing_->exception_entry_cycles();
  outcome_.cycles += cycles;
  if (observer_)
    observer_->on_exception_entry(kSvcallException, handler & ~1u, return_address, cycles, frame);
}

void Machine::return_from_exception() {
  // PC holds the EXC_RETURN value the handler branched to, bit 0 cleared by the branch.
  const uint32_t exc_return = read_pc() | 1u;
  uint32_t returning_pc = current_pc_;
  if (mode_ == HookMode::kPerInstruction && current_) {
    charge(*current_, current_pc_, exc_return, true);
    ++outcome_.instructions;
    current_ = nullptr;
  } else if (mode_ == HookMode::kBlock && pending_) {
    returning_pc = pending_->addresses.empty() ? pending_->start : pending_->addresses.back();
    charge_pending(pending_->instructions.size(), exc_return);
    pending_ = nullptr;
  }
  if (!active_exception_)
    return stop_with_fault("exception-return", returning_pc,
                           fmt::format("branch to EXC_RETURN {:#010x} outside an exception "
                                       "handler",
                                       exc_return));
  if (exc_return != kExcReturnThreadMain)
    return stop_with_fault("exception-return", returning_pc,
                           fmt::format("EXC_RETURN {:#010x}: only {:#010x} (thread mode, main "
                                       "stack, basic frame) is modelled",
                                       exc_return, kExcReturnThreadMain));
  // B1.5.8 PopStack: from the current SP, whatever the handler did with the stack.
  uint32_t sp = 0;
  uc_reg_read(uc_, UC_ARM_REG_SP, &sp);
  std::array<uint32_t, 8> words{};
  if (!in_board_memory(sp, kBasicFrameBytes, true) ||
      uc_mem_read(uc_, sp, words.data(), kBasicFrameBytes) != UC_ERR_OK)
    return stop_with_fault("exception-return", returning_pc,
                           fmt::format("the exception frame at sp {:#010x} is outside RAM", sp));
  for (int r = 0; r < 4; ++r)
    uc_reg_write(uc_, UC_ARM_REG_R0 + r, &words[static_cast<size_t>(r)]);
  uc_reg_write(uc_, UC_ARM_REG_R12, &words[4]);
  uc_reg_write(uc_, UC_ARM_REG_LR, &words[5]);
  const uint32_t resume_pc = words[6] & ~1u;
  const uint32_t xpsr = words[7] & ~(kXpsrStackAligned | kXpsrIpsr);
  const uint32_t new_sp =
      sp + kBasicFrameBytes + ((words[7] & kXpsrStackAligned) != 0 ? 4u : 0u);
  const uint32_t thumb_pc = resume_pc | 1u;
  uc_reg_write(uc_, UC_ARM_REG_SP, &new_sp);
  uc_reg_write(uc_, UC_ARM_REG_XPSR, &xpsr);
  uc_reg_write(uc_, UC_ARM_REG_PC, &thumb_pc);
  active_exception_.reset();
  block_sp_ = new_sp;
  if (mode_ == HookMode::kBlockCountOnly || untimed_) return;
  const uint32_t cycles = timing_->exception_return_cycles();
  outcome_.cycles += cycles;
  if (observer_) observer_->on_exception_return(resume_pc, cycles, new_sp);
}

void Machine::on_interrupt(uc_engine*, uint32_t intno, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  // Unicorn 2.0.1 raises every Thumb BKPT, 0xAB included, as EXCP_BKPT (7) with PC at the
  // BKPT; it never raises EXCP_SEMIHOST (16) for M-profile.
  if (intno == 7 && self->serve_semihosting(self->read_pc())) return;
  if (intno == 7 && self->serve_isolation(self->read_pc())) return;
  if (intno == kExcpSvc) return self->enter_svc();
  if (intno == kExcpExceptionExit) return self->return_from_exception();
  self->stop_with_fault(exception_name(intno), self->executing_pc(),
                        fmt::format("the CPU raised exception {} (the firmware would take a "
                                    "fault handler here)",
                                    intno));
}

bool Machine::on_invalid_instruction(uc_engine*, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  self->stop_with_fault("undefined-instruction", self->executing_pc(),
                        "the CPU could not decode the instruction");
  return false;
}

uint64_t Machine::on_ppb_read(uc_engine*, uint64_t offset, unsigned, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const uint32_t address = SystemControl::kBase + static_cast<uint32_t>(offset);
  self->note_device_access(address);
  auto value = self->scs_.read(address, self->outcome_.cycles);
  if (!value) {
    self->stop_with_fault("unmodelled-register", self->mmio_pc(),
                          fmt::format("read of system register {:#010x}, which the simulator "
                                      "does not model",
                                      address));
    return 0;
  }
  if (address == SystemControl::kCycleCounterAddress)
    self->outcome_.cycle_counter_reads.push_back(
        {*value, self->outcome_.cycles, self->outcome_.instructions});
  return *value;
}

void Machine::on_ppb_write(uc_engine*, uint64_t offset, unsigned, uint64_t value,
                           void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const uint32_t address = SystemControl::kBase + static_cast<uint32_t>(offset);
  self->note_device_access(address);
  if (!self->scs_.write(address, static_cast<uint32_t>(value), self->outcome_.cycles))
    self->stop_with_fault("unmodelled-register", self->mmio_pc(),
                          fmt::format("write of {:#x} to system register {:#010x}, which the "
                                      "simulator does not model",
                                      value, address));
}

uint64_t Machine::on_console_read(uc_engine*, uint64_t offset, unsigned, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  if (self->board_.console != model::ConsoleKind::kCmsdkUart) return 0;
  const uint32_t address = self->board_.console_address + static_cast<uint32_t>(offset);
  self->note_device_access(address);
  const auto value = self->uart_.read(static_cast<uint32_t>(offset));
  if (!value)
    self->stop_with_fault("unmodelled-register", self->mmio_pc(),
                          fmt::format("read of UART register {:#010x}, which the simulator's "
                                      "CMSDK UART does not model",
                                      address));
  return value.value_or(0);
}

void Machine::on_console_write(uc_engine*, uint64_t offset, unsigned, uint64_t value,
                               void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const uint32_t address = self->board_.console_address + static_cast<uint32_t>(offset);
  self->note_device_access(address);
  if (self->board_.console == model::ConsoleKind::kCmsdkUart) {
    const auto written =
        self->uart_.write(static_cast<uint32_t>(offset), static_cast<uint32_t>(value));
    if (written.sent) self->outcome_.console.push_back(*written.sent);
    if (!written.modelled)
      self->stop_with_fault("unmodelled-register", self->mmio_pc(),
                            fmt::format("write of {:#x} to UART register {:#010x}, which the "
                                        "simulator's CMSDK UART does not model",
                                        value, address));
    return;
  }
  if (offset == kConsoleTx) {
    self->outcome_.console.push_back(static_cast<char>(value & 0xFF));
  } else if (offset == kConsoleExit) {
    self->outcome_.exited = true;
    self->outcome_.exit_code = static_cast<int>(static_cast<uint32_t>(value));
    self->stop_pc_ = self->mmio_pc();
    self->stopping_ = true;
    uc_emu_stop(self->uc_);
  }
}

RunOutcome Machine::run(uint64_t cycle_budget) {
  outcome_ = RunOutcome{};
  budget_ = cycle_budget;
  reported_budget_ = cycle_budget;
  current_ = nullptr;
  stopping_ = false;
  stop_pc_.reset();
  active_exception_.reset();
  pending_ = nullptr;
  pending_charged_ = 0;
  pending_operands_.clear();
  pending_flags_.clear();
  it_block_.clear();
  drop_isolation_snapshot();
  // Back to the reset state: an earlier run leaves registers, DWT/DEMCR settings and the timing
  // model's pipeline state behind, and they would change this run's counts.
  uc_context_restore(uc_, reset_context_);
  if (semihosting_) semihosting_->reset();
  uart_ = CmsdkUart{};
  // Restore the image's writable segments: newlib's rdimon crt0 does not copy .data from flash
  // (a debugger loads it straight to RAM), so without this a second run starts from the first
  // run's .data. Harness firmware copies .data itself and is unaffected.
  if (image_)
    for (const auto& seg : image_->segments())
      if (!seg.data.empty() && in_board_memory(seg.load_address, seg.data.size(), true))
        uc_mem_write(uc_, seg.load_address, seg.data.data(), seg.data.size());
  const model::MemoryRegion* flash = board_.flash();
  // VTOR starts at the vector table the core boots from.
  scs_ = SystemControl(cpuid_, flash ? flash->origin : 0);
  if (auto fresh = timing::make_timing_model(board_)) timing_ = std::move(*fresh);
  memoize_ = timing_->has_compact_state();
  uint32_t vectors[2] = {0, 0};
  if (!flash || uc_mem_read(uc_, flash->origin, vectors, sizeof vectors) != UC_ERR_OK) {
    outcome_.fault = model::Fault{"no-vector-table", 0, "", "no flash region to boot from"};
    return outcome_;
  }
  uc_reg_write(uc_, UC_ARM_REG_MSP, &vectors[0]);
  uc_reg_write(uc_, UC_ARM_REG_SP, &vectors[0]);
  block_sp_ = vectors[0];
  return emulate(vectors[1]);
}

RunOutcome Machine::resume(uint64_t cycle_budget) {
  if (!outcome_.pause) return outcome_;
  const IsolationPause pause = *outcome_.pause;
  outcome_.pause.reset();
  budget_ = outcome_.cycles + cycle_budget;
  current_ = nullptr;
  stopping_ = false;
  stop_pc_.reset();
  pending_ = nullptr;
  pending_charged_ = 0;
  // Paused right after the snapshot: PC is still at the trap (serve_isolation).
  const bool at_snapshot = !pause.restore && isolation_;
  return emulate(at_snapshot ? isolation_->resume_pc : read_pc());
}

RunOutcome Machine::emulate(uint32_t pc) {
  const model::MemoryRegion* flash = board_.flash();
  const auto start = std::chrono::steady_clock::now();
  // The `until` address is the vector table's first word, which is data and never executed.
  const uc_err err = uc_emu_start(uc_, pc | 1u, flash->origin, 0, 0);
  outcome_.host_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (semihosting_) outcome_.console += semihosting_->take_console();
  // The instruction the run stopped at (the EXIT write, a faulting access) counts.
  if (current_) {
    charge(*current_, current_pc_, current_pc_ + current_->size_bytes, true);
    ++outcome_.instructions;
    current_ = nullptr;
  }
  if (mode_ == HookMode::kBlock && pending_) {
    if (stop_pc_) charge_up_to(*stop_pc_, true);
    current_pc_ = stop_pc_.value_or(current_pc_);
    pending_ = nullptr;
  }
  if (!outcome_.fault && err != UC_ERR_OK) {
    uint32_t pc = current_pc_;
    outcome_.fault = model::Fault{"emulator-error", pc, image_ ? image_->describe_address(pc) : "",
                                  uc_strerror(err)};
  }
  if (!outcome_.fault && !outcome_.exited && !outcome_.pause) {
    outcome_.fault = model::Fault{"stopped", current_pc_,
                                  image_ ? image_->describe_address(current_pc_) : "",
                                  "execution stopped without writing the EXIT register"};
  }
  return outcome_;
}

}  // namespace fathom::sim
