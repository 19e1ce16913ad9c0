#pragma once
// An IT block whose outcome can be read from registers after it ran. Compilers materialize a
// condition as `ITE cc; MOVcc Rd, #a; MOVncc Rd, #b` (a carry or borrow in C bignum code:
// `c = x < y`), or add it to a value as `ITE cc; MOVcc Rd, Rm; ADDncc Rd, Rm, #1`. Exactly one
// of the two instructions executes, so Rd afterwards (minus Rm for the second form) says which,
// as long as nothing after the IT block writes Rd or Rm before the registers are read. The
// block-hook machine (sim/machine.cpp) then needs no hook on such an IT to know its conditions
// when a later instruction of its translation block overwrites the flags: it reads the
// registers when it charges the block instead (docs/TIMING.md "IT blocks").
//
// A minimum or maximum is the other idiom: `CMP Rd, Rm; IT cs; MOVcs Rd, Rm` (Mbed TLS's
// mbedtls_mpi_core_mla bounds its loop so). Its one instruction executes when the condition
// holds, and the condition holds when the two registers are equal, so Rd == Rm afterwards
// exactly when it executed, provided the CMP right before the IT set the flags (the machine
// checks that it precedes the IT in the translation block being charged).
#include <cstdint>
#include <optional>
#include <span>

namespace fathom::sim {

inline constexpr uint8_t kNoBase = 0xFF;

// What an instruction of such an IT writes: Rd = (base register or 0) + offset, flags unchanged.
// MOV Rd, #imm (T1 16-bit, which does not set the flags inside an IT block; T2 MOV.W with S = 0;
// T3 MOVW), MOV Rd, Rm (T1 16-bit, T3 MOV.W without shift), ADD/SUB Rd, Rn, #imm (T1 16-bit
// inside an IT block; T3 ADD.W/SUB.W with S = 0; T4 ADDW/SUBW). Decoded from
// `code` (little-endian halfwords); nothing for any other instruction.
struct RegisterWrite {
  uint8_t rd = 0;
  uint8_t base = kNoBase;  // r0..r15, or kNoBase for a constant
  uint32_t offset = 0;
  uint8_t size_bytes = 0;
};
std::optional<RegisterWrite> decode_register_write(std::span<const uint8_t> code);

struct ItResult {
  uint8_t rd = 0;              // r0..r12
  uint8_t base = kNoBase;      // r0..r12 other than rd, or kNoBase: both instructions' base
  uint32_t then_value = 0;     // Rd - base when the first instruction executed
  uint32_t else_value = 0;     // ... when the second one did
  uint32_t then_flags = 0;     // APSR flags (bits 31..28) under which the first one executes
  uint32_t else_flags = 0;     // ... and under which the second one does
  uint8_t bytes = 0;           // the instructions' size in bytes (after the IT's 2)
  // A compared move: Rd - base is then_value (0) when its instruction executed, anything else
  // when it did not; valid only when the CMP of Rd and the base, `compare_bytes` before the IT,
  // directly precedes it (0 for the two-instruction form, which needs no CMP).
  bool else_when_different = false;
  uint8_t compare_bytes = 0;
};

// The IT with low byte `firstcond_mask` followed by `after` (the bytes after the IT, at least
// the two instructions): an ItResult when it is a two-instruction IT of which exactly one
// executes under any flags, and both write the same r0..r12 from the same base (a register
// other than Rd among r0..r12, or none) with different offsets.
std::optional<ItResult> it_result(uint8_t firstcond_mask, std::span<const uint8_t> after);

// What a CMP compares: Rn with Rm (register forms without a shift: T1, T2, T3 CMP.W) or with
// a constant (T1, T2 CMP.W), decoded from the start of `code`, and its size; nothing for any
// other instruction.
struct Comparison {
  uint8_t rn = 0;
  uint8_t rm = kNoBase;  // kNoBase: Rn is compared with `imm`
  uint32_t imm = 0;
  uint8_t size_bytes = 0;
};
std::optional<Comparison> decode_compare(std::span<const uint8_t> code);
// Only the register forms of decode_compare.
std::optional<Comparison> decode_register_compare(std::span<const uint8_t> code);

// The APSR flags (N Z C V in bits 31..28) that `CMP a, b` leaves.
constexpr uint32_t compare_flags(uint32_t a, uint32_t b) {
  const uint32_t r = a - b;
  const uint32_t n = r >> 31, z = r == 0, c = a >= b, v = ((a ^ b) & (a ^ r)) >> 31;
  return n << 31 | z << 30 | c << 29 | v << 28;
}

// The one-instruction IT with low byte `firstcond_mask` followed by `after`, and preceded by
// `before` (the up to 4 bytes right before the IT): an ItResult (else_when_different) when the
// instruction is MOV Rd, Rm (r0..r12, different), the last 2 or 4 bytes of `before` are CMP Rd,
// Rm or CMP Rm, Rd, and the condition holds when they are equal.
std::optional<ItResult> compared_move_result(uint8_t firstcond_mask,
                                             std::span<const uint8_t> before,
                                             std::span<const uint8_t> after);

}  // namespace fathom::sim
