#pragma once
// An IT block whose outcome can be read from a register after it ran. Compilers materialize a
// condition as `ITE cc; MOVcc Rd, #a; MOVncc Rd, #b` (a carry or borrow in C bignum code:
// `c = x < y`). Exactly one of the two moves executes, so Rd afterwards (a or b, a != b) says
// which, as long as nothing after the IT block writes Rd before the registers are read. The
// block-hook machine (sim/machine.cpp) then needs no hook on such an IT to know its conditions
// when a later instruction of its translation block overwrites the flags: it reads Rd when it
// charges the block instead (docs/TIMING.md "IT blocks").
#include <cstdint>
#include <optional>
#include <span>

namespace fathom::sim {

struct ItResult {
  uint8_t rd = 0;              // r0..r12
  uint32_t then_value = 0;     // Rd when the first instruction executed
  uint32_t else_value = 0;     // Rd when the second one did
  uint32_t then_flags = 0;     // APSR flags (bits 31..28) under which the first one executes
  uint32_t else_flags = 0;     // ... and under which the second one does
  uint8_t bytes = 0;           // the two moves' size in bytes (after the IT's 2)
};

// The value a MOV (register-free, flags unchanged) writes: 16-bit MOV Rd, #imm8 (T1, which
// does not set the flags inside an IT block), MOV.W Rd, #const (T2, S = 0) or MOVW Rd, #imm16
// (T3), decoded from `code` (little-endian halfwords). Nothing for any other instruction.
struct MovImmediate {
  uint8_t rd = 0;
  uint32_t value = 0;
  uint8_t size_bytes = 0;
};
std::optional<MovImmediate> decode_mov_immediate(std::span<const uint8_t> code);

// The IT with low byte `firstcond_mask` followed by `after` (the bytes after the IT, at least
// the two instructions): an ItResult when it is a two-instruction IT of which exactly one
// executes under any flags, and both are such moves to the same r0..r12 with different values.
std::optional<ItResult> it_result(uint8_t firstcond_mask, std::span<const uint8_t> after);

}  // namespace fathom::sim
