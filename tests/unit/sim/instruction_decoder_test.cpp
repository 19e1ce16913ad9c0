// Classification of Thumb encodings by sim::InstructionDecoder. Encodings were produced with
// `arm-none-eabi-as -mcpu=cortex-m33 -mfpu=fpv5-sp-d16` and read back with objdump; each case
// names the instruction it encodes.
#include "sim/instruction_decoder.h"

#include <gtest/gtest.h>

#include <vector>

namespace fathom::sim {
namespace {

// Thumb code is a stream of little-endian halfwords; a 32-bit instruction is two of them, the
// first one first.
std::vector<uint8_t> thumb(const std::vector<uint16_t>& halfwords) {
  std::vector<uint8_t> bytes;
  for (uint16_t h : halfwords) {
    bytes.push_back(static_cast<uint8_t>(h & 0xFF));
    bytes.push_back(static_cast<uint8_t>(h >> 8));
  }
  return bytes;
}

Instruction decode(const std::vector<uint16_t>& halfwords) {
  static const InstructionDecoder decoder;
  const auto bytes = thumb(halfwords);
  return decoder.decode(0x1000, bytes);
}

struct Case {
  const char* text;
  std::vector<uint16_t> halfwords;
  InstrClass cls;
  uint8_t size_bytes;
  uint8_t reg_count;
  bool writes_pc;
  bool register_offset;
};

// Shown by gtest (and in ctest's test names) instead of a byte dump.
void PrintTo(const Case& c, std::ostream* os) { *os << c.text; }

class DecoderCase : public ::testing::TestWithParam<Case> {};

TEST_P(DecoderCase, Classifies) {
  const Case& c = GetParam();
  SCOPED_TRACE(c.text);
  const Instruction insn = decode(c.halfwords);
  EXPECT_TRUE(insn.valid);
  EXPECT_EQ(insn.cls, c.cls);
  EXPECT_EQ(insn.size_bytes, c.size_bytes);
  EXPECT_EQ(insn.reg_count, c.reg_count);
  EXPECT_EQ(insn.writes_pc, c.writes_pc);
  EXPECT_EQ(insn.register_offset, c.register_offset);
}

using IC = InstrClass;
INSTANTIATE_TEST_SUITE_P(
    Encodings, DecoderCase,
    ::testing::Values(
        Case{"ldr r0, [r1]", {0x6808}, IC::kLoad, 2, 0, false, false},
        Case{"ldr r0, [r1, r2]", {0x5888}, IC::kLoad, 2, 0, false, true},
        Case{"str r0, [r1]", {0x6008}, IC::kStore, 2, 0, false, false},
        Case{"str r0, [r1, r2]", {0x5088}, IC::kStore, 2, 0, false, true},
        Case{"pop {r4, pc}", {0xBD10}, IC::kLoadMultiple, 2, 2, true, false},
        Case{"ldmia.w sp!, {r3, lr}", {0xE8BD, 0x4008}, IC::kLoadMultiple, 4, 2, false, false},
        Case{"ldr.w pc, [sp], #4", {0xF85D, 0xFB04}, IC::kLoadMultiple, 4, 1, true, false},
        Case{"push {r4, lr}", {0xB510}, IC::kStoreMultiple, 2, 2, false, false},
        Case{"ldrd r0, r1, [r2]", {0xE9D2, 0x0100}, IC::kLoadDouble, 4, 0, false, false},
        Case{"b.n .", {0xE7FE}, IC::kBranch, 2, 0, true, false},
        Case{"bl .", {0xF7FF, 0xFFFE}, IC::kBranch, 4, 0, true, false},
        Case{"bx lr", {0x4770}, IC::kBranch, 2, 0, true, false},
        Case{"mov pc, lr", {0x46F7}, IC::kBranch, 2, 0, true, false},
        Case{"tbb [pc, r3]", {0xE8DF, 0xF003}, IC::kTableBranch, 4, 0, false, false},
        Case{"add.w r3, r3, #1", {0xF103, 0x0301}, IC::kAlu, 4, 0, false, false},
        Case{"mul.w r0, r1, r0", {0xFB01, 0xF000}, IC::kMultiply, 4, 0, false, false},
        Case{"udiv r0, r1, r2", {0xFBB1, 0xF0F2}, IC::kDivide, 4, 0, false, false},
        Case{"umull r0, r1, r2, r3", {0xFBA2, 0x0103}, IC::kLongMultiply, 4, 0, false, false},
        Case{"it eq", {0xBF08}, IC::kIt, 2, 0, false, false},
        Case{"vadd.f32 s0, s1, s2", {0xEE30, 0x0A81}, IC::kFpuAlu, 4, 0, false, false},
        Case{"vmla.f32 s0, s1, s2", {0xEE00, 0x0A81}, IC::kFpuMac, 4, 0, false, false},
        Case{"vdiv.f32 s0, s1, s2", {0xEE80, 0x0A81}, IC::kFpuDivSqrt, 4, 0, false, false},
        Case{"vldr s0, [r0]", {0xED90, 0x0A00}, IC::kFpuLoad, 4, 0, false, false},
        Case{"vpush {d8-d9}", {0xED2D, 0x8B04}, IC::kFpuMultiple, 4, 4, false, false},
        Case{"dmb sy", {0xF3BF, 0x8F5F}, IC::kBarrier, 4, 0, false, false},
        Case{"udf #0", {0xDE00}, IC::kOther, 2, 0, false, false}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string name;
      for (char c : std::string(info.param.text))  // "ldr r0, [r1]" -> "ldr_r0_r1"
        if (isalnum(static_cast<unsigned char>(c))) name += c;
        else if (!name.empty() && name.back() != '_') name += '_';
      while (!name.empty() && name.back() == '_') name.pop_back();
      return std::to_string(info.index) + "_" + name;
    });

// Facts for the M33 latency rules (docs/TIMING.md "Cortex-M33").
TEST(InstructionDecoder, RotatedPlainExtendIsNotAShiftedOperand) {
  EXPECT_FALSE(decode({0xFA5F, 0xF091}).shifted_operand);  // uxtb.w r0, r1, ror #8
  EXPECT_TRUE(decode({0xEB04, 0x6335}).shifted_operand);   // add.w r3, r4, r5, ror #24
}

TEST(InstructionDecoder, ShiftedConstantsFromTheModifiedImmediate) {
  EXPECT_TRUE(decode({0xF481, 0x50FE}).shifted_constant);   // eor.w r0, r1, #0x1fc0
  EXPECT_FALSE(decode({0xF081, 0x00FF}).shifted_constant);  // eor.w r0, r1, #0xff
  EXPECT_FALSE(decode({0xF081, 0x10FF}).shifted_constant);  // eor.w r0, r1, #0x00ff00ff
  EXPECT_FALSE(decode({0xF601, 0x70FF}).shifted_constant);  // addw r0, r1, #0xfff
  EXPECT_FALSE(decode({0xEB04, 0x6335}).shifted_constant);  // add.w r3, r4, r5, ror #24
  const Instruction movs = decode({0xF45F, 0x50FE});         // movs.w r0, #0x1fc0
  EXPECT_TRUE(movs.shifted_constant);
  EXPECT_TRUE(movs.move);
  EXPECT_TRUE(movs.sets_flags);
}

TEST(InstructionDecoder, ExtendAndAddReadsBothSourcesAndNamesItsAccumulateInput) {
  const Instruction uxtab = decode({0xFA55, 0xF480});  // uxtab r4, r5, r0
  EXPECT_TRUE(uxtab.extend_add);
  EXPECT_FALSE(uxtab.shifted_operand);
  EXPECT_EQ(uxtab.regs_read, (1u << 5) | (1u << 0));  // Capstone 4 reports only r5
  EXPECT_EQ(uxtab.accumulator_regs, 1u << 5);
  EXPECT_EQ(uxtab.regs_written, 1u << 4);
}

TEST(InstructionDecoder, DoubleTransfersNameTheirRegistersInOperandOrder) {
  const Instruction strd = decode({0xE9CD, 0x9A09});  // strd r9, sl, [sp, #36]
  EXPECT_EQ(strd.cls, InstrClass::kStoreDouble);
  EXPECT_EQ(strd.pair_regs[0], 9);
  EXPECT_EQ(strd.pair_regs[1], 10);
  const Instruction ldrd = decode({0xE9DD, 0x7300});  // ldrd r7, r3, [sp]
  EXPECT_EQ(ldrd.cls, InstrClass::kLoadDouble);
  EXPECT_EQ(ldrd.pair_regs[0], 7);
  EXPECT_EQ(ldrd.pair_regs[1], 3);
  EXPECT_EQ(ldrd.data_regs, (1u << 7) | (1u << 3));
  EXPECT_EQ(decode({0xF8D2, 0x3004}).pair_regs[0], Instruction::kNoRegister);  // ldr.w r3, [r2, #4]
}

TEST(InstructionDecoder, NopIsMarked) {
  EXPECT_TRUE(decode({0xBF00}).nop);
  EXPECT_FALSE(decode({0x2800}).nop);  // cmp r0, #0
}

TEST(InstructionDecoder, DecodesOnlyTheFirstInstruction) {
  // "it eq; moveq r0, r1": the IT alone, 2 bytes.
  const Instruction insn = decode({0xBF08, 0x4608});
  EXPECT_EQ(insn.cls, InstrClass::kIt);
  EXPECT_EQ(insn.size_bytes, 2);
}

TEST(InstructionDecoder, TruncatedWideInstructionIsInvalidWithItsWidth) {
  // The first halfword of "bl" (0xF7FF) announces a 32-bit instruction; without the second
  // halfword Capstone cannot decode it, and the decoder still reports the width.
  const Instruction insn = decode({0xF7FF});
  EXPECT_FALSE(insn.valid);
  EXPECT_EQ(insn.cls, InstrClass::kOther);
  EXPECT_EQ(insn.size_bytes, 4);
}

TEST(InstructionDecoder, EmptyInputIsInvalid) {
  static const InstructionDecoder decoder;
  const Instruction insn = decoder.decode(0x1000, {});
  EXPECT_FALSE(insn.valid);
  EXPECT_EQ(insn.size_bytes, 2);
}

}  // namespace
}  // namespace fathom::sim
