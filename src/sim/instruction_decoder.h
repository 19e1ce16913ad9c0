#pragma once
// Decodes Thumb instructions with Capstone into sim::Instruction, for the timing model.
#include <capstone/capstone.h>

#include <cstdint>
#include <span>
#include <string>

#include "sim/instruction.h"

namespace fathom::sim {

class InstructionDecoder {
 public:
  InstructionDecoder();
  ~InstructionDecoder();
  InstructionDecoder(const InstructionDecoder&) = delete;
  InstructionDecoder& operator=(const InstructionDecoder&) = delete;

  // Decodes the instruction at `address` from `bytes` (at least the instruction's bytes).
  // An undecodable instruction comes back with valid = false and class kOther.
  Instruction decode(uint32_t address, std::span<const uint8_t> bytes) const;
  // The instruction at `address` as assembly text ("ldrb r3, [r2, r1]"); "" if undecodable.
  std::string text(uint32_t address, std::span<const uint8_t> bytes) const;

 private:
  // Fills the register, flag, address and operand facts of `out` from Capstone's detail.
  void add_memory_operand(const cs_insn& insn, Instruction& out) const;
  void add_pipeline_facts(const cs_insn& insn, Instruction& out) const;
  void add_transfer_facts(const cs_insn& insn, Instruction& out) const;

  csh handle_ = 0;
  cs_insn* scratch_ = nullptr;
};

}  // namespace fathom::sim
