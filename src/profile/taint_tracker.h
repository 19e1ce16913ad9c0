#pragma once
// Taint tracking for `fathom ct` (docs/CT.md): follows the bytes a workload declared secret
// (the harness's fathom_ct_secret) through every instruction the machine runs and records each
// instruction whose timing could depend on them. Per instruction (the simulator's
// per-instruction mode, where the registers read in on_instruction are those right after the
// reported instruction):
//  - a taint bit per core register, one for the APSR flags, one for the whole FP unit, and one
//    per byte of memory (a shadow, page by page);
//  - an instruction's results are tainted when any register or flag it reads is (Capstone's
//    read and write sets, sim::Instruction); a load's by the bytes it reads (the address from
//    the registers before it, LDM/POP one word per listed register, ascending), a store's bytes
//    by the registers it stores; an instruction that fails its IT condition leaves its
//    destinations alone unless the flags are tainted;
//  - findings, counted per instruction address while the harness's window is open (the timed
//    runs of the operation, fathom_ct_window): a conditional branch or CBZ/CBNZ on tainted
//    flags/registers, an IT on tainted flags, an indirect branch (BX/BLX Rm, MOV PC, POP/LDR PC,
//    TBB/TBH) on a tainted target or index, a load or store whose address is tainted (a table
//    lookup), a UDIV/SDIV with a tainted operand (M3/M4/M33: its time depends on the operands),
//    a long multiply with a tainted operand on the M3 (early termination), and a call to one of
//    the C library's software division routines with a tainted argument (whose own branches are
//    then one finding at the call, not dozens inside it);
//  - declassification: fathom_ct_public(p, n) makes bytes public, fathom_ct_public_value(v)
//    its argument register.
// What it cannot see is in docs/CT.md (caches, power, paths the secrets never took).
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "elf/elf_image.h"
#include "sim/execution_observer.h"

namespace fathom::profile {

enum class TaintClass : uint8_t {
  kBranch,            // conditional branch or CBZ/CBNZ on secret flags/registers
  kIt,                // IT on secret flags
  kIndirectBranch,    // BX/BLX Rm, MOV PC, POP/LDR PC, TBB/TBH on a secret target or index
  kSecretAddress,     // load or store at a secret-dependent address
  kVariableLatency,   // divide (or M3 long multiply) with a secret operand
  kSoftwareDivision,  // call to a software division routine with a secret argument
};
constexpr int kTaintClasses = 6;
// "branch", "it", "indirect-branch", "secret-address", "variable-latency", "software-division".
const char* taint_class_name(TaintClass c);

struct TaintFinding {
  TaintClass cls = TaintClass::kBranch;
  uint32_t pc = 0;
  std::string operand;  // what carried the taint: "flags", "r3", "address r2", "r0-r1"...
  uint64_t count = 0;   // executions while the window was open
  uint64_t order = 0;   // when it first happened (for "first finding")
};

struct TaintOptions {
  // Harness hooks (addresses, Thumb bit clear; 0 = the image has none).
  uint32_t mark_secret = 0;   // fathom_ct_secret(const void*, size_t)
  uint32_t mark_public = 0;   // fathom_ct_public(const void*, size_t)
  uint32_t public_value = 0;  // fathom_ct_public_value(uint32_t)
  uint32_t window = 0;        // fathom_ct_window(int open)
  // Entries of software division routines (__aeabi_uidiv, __udivmoddi4, ...).
  std::vector<uint32_t> division_routines;
  bool divide_is_variable = true;          // UDIV/SDIV (every core that has them)
  bool long_multiply_is_variable = false;  // the M3's early-terminating UMULL/SMULL/UMLAL/SMLAL
};

// The hooks and division routines of `image` for core `core` ("cortex-m3", ...).
TaintOptions taint_options_for(const elf::ElfImage& image, const std::string& core);

class TaintTracker final : public sim::ExecutionObserver {
 public:
  explicit TaintTracker(TaintOptions options) : options_(std::move(options)) {}

  void attach(const sim::RegisterReader& read_register) override;
  void on_instruction(const sim::Instruction& insn, uint32_t pc, uint32_t next, uint32_t cycles,
                      bool executed, uint32_t sp) override;
  void on_exception_entry(uint32_t exception_number, uint32_t handler, uint32_t return_address,
                          uint32_t cycles, uint32_t sp) override;
  void on_exception_return(uint32_t resume_pc, uint32_t cycles, uint32_t sp) override;
  void on_snapshot() override;
  void on_restore() override;

  // Findings by address and class, in address order.
  std::vector<TaintFinding> findings() const;
  uint64_t marked_bytes() const { return marked_bytes_; }      // declared secret, in total
  uint64_t windows() const { return windows_; }                // times the window opened
  // Instructions run inside the window that read secret data (0: the secrets never reached
  // the measured code, so "no finding" would mean nothing).
  uint64_t tainted_in_window() const { return tainted_in_window_; }

 private:
  static constexpr uint32_t kPageBytes = 4096;
  using Page = std::array<uint8_t, kPageBytes>;
  struct Shadow {
    std::array<bool, 16> regs{};
    bool flags = false;
    bool fpu = false;
    std::unordered_map<uint32_t, Page> pages;  // by address / kPageBytes; a byte: 1 = secret
  };

  bool memory_tainted(uint32_t address, uint32_t bytes) const;
  void set_memory(uint32_t address, uint32_t bytes, bool tainted);
  bool regs_tainted(sim::RegMask mask) const;
  std::string tainted_regs(sim::RegMask mask) const;  // "r2", "r0-r1", "r3, r7"
  uint32_t address_of(const sim::Instruction& insn) const;  // from the registers before it
  void find(TaintClass cls, uint32_t pc, std::string operand);
  void propagate(const sim::Instruction& insn, uint32_t pc, bool executed);
  void read_all_registers();

  TaintOptions options_;
  sim::RegisterReader read_register_;
  std::array<uint32_t, 16> regs_{};  // register values before the next reported instruction
  bool have_regs_ = false;
  Shadow shadow_;
  std::optional<Shadow> snapshot_;
  bool window_open_ = false;
  std::optional<uint32_t> division_return_;  // inside a software division routine until here
  std::map<std::pair<uint32_t, TaintClass>, TaintFinding> findings_;
  uint64_t order_ = 0;
  uint64_t marked_bytes_ = 0;
  uint64_t windows_ = 0;
  uint64_t tainted_in_window_ = 0;
};

}  // namespace fathom::profile
