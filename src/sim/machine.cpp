#include "sim/machine.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
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
  std::unique_ptr<Machine> m(new Machine(board, uc, std::move(*timing)));
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
  else
    uc_hook_add(uc, &h, UC_HOOK_BLOCK, reinterpret_cast<void*>(&Machine::on_block), m.get(), 1,
                0);
  uc_hook_add(uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
              reinterpret_cast<void*>(&Machine::on_unmapped), m.get(), 1, 0);
  uc_hook_add(uc, &h, UC_HOOK_INTR, reinterpret_cast<void*>(&Machine::on_interrupt), m.get(), 1,
              0);
  uc_hook_add(uc, &h, UC_HOOK_INSN_INVALID,
              reinterpret_cast<void*>(&Machine::on_invalid_instruction), m.get(), 1, 0);
  return m;
}

Machine::Machine(const model::Board& board, uc_engine* uc,
                 std::unique_ptr<timing::CoreTimingModel> timing)
    : board_(board), uc_(uc), timing_(std::move(timing)), scs_(0) {}

Machine::~Machine() {
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
  return {};
}

util::Result<void> Machine::write_memory(uint32_t address, const std::vector<uint8_t>& bytes) {
  if (uc_mem_write(uc_, address, bytes.data(), bytes.size()) != UC_ERR_OK)
    return util::fail(fmt::format("cannot write {} bytes at {:#010x}", bytes.size(), address));
  // Forget decoded instructions in the written range: the bytes may be code.
  for (auto& region : code_regions_)
    for (uint64_t a = address & ~1u; a < uint64_t{address} + bytes.size(); a += 2)
      if (a - region.origin < region.length) region.decoded[(a - region.origin) >> 1] = nullptr;
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
      instructions_.push_back(
          decoder_.decode(address, std::span<const uint8_t>(bytes.data(), available)));
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
    self->outcome_.cycles += self->timing_->cycles(*self->current_, self->current_pc_, pc);
    ++self->outcome_.instructions;
  }
  self->current_pc_ = pc;
  self->current_ = &self->instruction_at(pc);
  if (self->current_->needs_operand_values) {
    // Divides and long multiplies cost what their operands decide; read them before the
    // instruction overwrites them (timing::CoreTimingModel::set_operand_values).
    uint32_t values[2] = {0, 0};
    for (int i = 0; i < 2; ++i) {
      const uint8_t n = self->current_->operand_regs[i];
      const int reg = n <= 12 ? UC_ARM_REG_R0 + n : (n == 13 ? UC_ARM_REG_SP : UC_ARM_REG_LR);
      uc_reg_read(self->uc_, reg, &values[i]);
    }
    self->timing_->set_operand_values(values[0], values[1]);
  }
  if (self->outcome_.cycles >= self->budget_ && !self->stopping_)
    self->stop_with_fault("budget-exhausted", pc,
                          fmt::format("the cycle budget of {} cycles ran out", self->budget_));
}

void Machine::on_block(uc_engine*, uint64_t address, uint32_t size, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  // Count the block's instructions (decoded once per address and cached like in on_code).
  const auto start = static_cast<uint32_t>(address);
  uint32_t count = 0;
  for (uint32_t pc = start; pc < start + size;) {
    const Instruction& insn = self->instruction_at(pc);
    pc += insn.size_bytes ? insn.size_bytes : 2;
    ++count;
  }
  self->outcome_.instructions += count;
  self->outcome_.cycles += count;
  self->current_pc_ = start;
  if (self->outcome_.cycles >= self->budget_ && !self->stopping_)
    self->stop_with_fault("budget-exhausted", start,
                          fmt::format("the cycle budget of {} cycles ran out", self->budget_));
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
  const uint32_t pc = type == UC_MEM_FETCH_UNMAPPED ? addr : self->current_pc_;
  self->stop_with_fault(kind, pc,
                        fmt::format("{}-byte access at {:#010x} (sp {:#010x})", size, addr, sp));
  return false;
}

void Machine::on_interrupt(uc_engine*, uint32_t intno, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  self->stop_with_fault(exception_name(intno), self->current_pc_,
                        fmt::format("the CPU raised exception {} (the firmware would take a "
                                    "fault handler here)",
                                    intno));
}

bool Machine::on_invalid_instruction(uc_engine*, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  self->stop_with_fault("undefined-instruction", self->current_pc_,
                        "the CPU could not decode the instruction");
  return false;
}

uint64_t Machine::on_ppb_read(uc_engine*, uint64_t offset, unsigned, void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  const uint32_t address = SystemControl::kBase + static_cast<uint32_t>(offset);
  auto value = self->scs_.read(address, self->outcome_.cycles);
  if (!value) {
    self->stop_with_fault("unmodelled-register", self->current_pc_,
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
  if (!self->scs_.write(address, static_cast<uint32_t>(value), self->outcome_.cycles))
    self->stop_with_fault("unmodelled-register", self->current_pc_,
                          fmt::format("write of {:#x} to system register {:#010x}, which the "
                                      "simulator does not model",
                                      value, address));
}

uint64_t Machine::on_console_read(uc_engine*, uint64_t, unsigned, void*) { return 0; }

void Machine::on_console_write(uc_engine*, uint64_t offset, unsigned, uint64_t value,
                               void* self_ptr) {
  auto* self = static_cast<Machine*>(self_ptr);
  if (offset == kConsoleTx) {
    self->outcome_.console.push_back(static_cast<char>(value & 0xFF));
  } else if (offset == kConsoleExit) {
    self->outcome_.exited = true;
    self->outcome_.exit_code = static_cast<int>(static_cast<uint32_t>(value));
    self->stopping_ = true;
    uc_emu_stop(self->uc_);
  }
}

RunOutcome Machine::run(uint64_t cycle_budget) {
  outcome_ = RunOutcome{};
  budget_ = cycle_budget;
  current_ = nullptr;
  stopping_ = false;
  // Back to the reset state: an earlier run leaves registers, DWT/DEMCR settings and the timing
  // model's pipeline state behind, and they would change this run's counts.
  uc_context_restore(uc_, reset_context_);
  scs_ = SystemControl(cpuid_);
  if (auto fresh = timing::make_timing_model(board_)) timing_ = std::move(*fresh);
  const model::MemoryRegion* flash = board_.flash();
  uint32_t vectors[2] = {0, 0};
  if (!flash || uc_mem_read(uc_, flash->origin, vectors, sizeof vectors) != UC_ERR_OK) {
    outcome_.fault = model::Fault{"no-vector-table", 0, "", "no flash region to boot from"};
    return outcome_;
  }
  uc_reg_write(uc_, UC_ARM_REG_MSP, &vectors[0]);
  uc_reg_write(uc_, UC_ARM_REG_SP, &vectors[0]);
  const auto start = std::chrono::steady_clock::now();
  // The `until` address is the vector table's first word, which is data and never executed.
  const uc_err err = uc_emu_start(uc_, vectors[1] | 1u, flash->origin, 0, 0);
  outcome_.host_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (current_) {
    outcome_.cycles += timing_->cycles(*current_, current_pc_, current_pc_ + current_->size_bytes);
    ++outcome_.instructions;
    current_ = nullptr;
  }
  if (!outcome_.fault && err != UC_ERR_OK) {
    uint32_t pc = current_pc_;
    outcome_.fault = model::Fault{"emulator-error", pc, image_ ? image_->describe_address(pc) : "",
                                  uc_strerror(err)};
  }
  if (!outcome_.fault && !outcome_.exited) {
    outcome_.fault = model::Fault{"stopped", current_pc_,
                                  image_ ? image_->describe_address(current_pc_) : "",
                                  "execution stopped without writing the EXIT register"};
  }
  return outcome_;
}

}  // namespace fathom::sim
