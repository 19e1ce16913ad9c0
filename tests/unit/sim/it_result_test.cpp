// sim::decode_mov_immediate and sim::it_result on hand-encoded Thumb (Arm ARM v7-M A7.7.75
// MOV (immediate) T1/T2/T3, A7.7.38 IT): which ITs' outcomes a register tells.
#include "sim/it_result.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/it_block.h"

namespace fathom::sim {
namespace {

// Little-endian bytes of Thumb halfwords.
std::vector<uint8_t> code(std::initializer_list<uint16_t> halfwords) {
  std::vector<uint8_t> out;
  for (uint16_t h : halfwords) out.push_back(h & 0xFF), out.push_back(h >> 8);
  return out;
}

TEST(DecodeMovImmediate, TheThreeEncodings) {
  auto t1 = decode_mov_immediate(code({0x2501}));  // movs r5, #1 (mov inside an IT)
  ASSERT_TRUE(t1);
  EXPECT_EQ(t1->rd, 5);
  EXPECT_EQ(t1->value, 1u);
  EXPECT_EQ(t1->size_bytes, 2);

  auto t2 = decode_mov_immediate(code({0xF04F, 0x0901}));  // mov.w r9, #1
  ASSERT_TRUE(t2);
  EXPECT_EQ(t2->rd, 9);
  EXPECT_EQ(t2->value, 1u);
  EXPECT_EQ(t2->size_bytes, 4);
  auto ones = decode_mov_immediate(code({0xF04F, 0x32FF}));  // mov.w r2, #0xffffffff
  ASSERT_TRUE(ones);
  EXPECT_EQ(ones->value, 0xFFFFFFFFu);
  auto rotated = decode_mov_immediate(code({0xF44F, 0x307F}));  // mov.w r0, #0x3fc00
  ASSERT_TRUE(rotated);
  EXPECT_EQ(rotated->rd, 0);
  EXPECT_EQ(rotated->value, 0x3FC00u);

  auto t3 = decode_mov_immediate(code({0xF241, 0x2134}));  // movw r1, #0x1234
  ASSERT_TRUE(t3);
  EXPECT_EQ(t3->rd, 1);
  EXPECT_EQ(t3->value, 0x1234u);
}

TEST(DecodeMovImmediate, NotAMoveOfAConstant) {
  EXPECT_FALSE(decode_mov_immediate(code({0x4628})));          // mov r0, r5 (register)
  EXPECT_FALSE(decode_mov_immediate(code({0xF05F, 0x0001})));  // movs.w r0, #1 (sets flags)
  EXPECT_FALSE(decode_mov_immediate(code({0xF06F, 0x0000})));  // mvn r0, #0
  EXPECT_FALSE(decode_mov_immediate(code({0x1838})));          // adds r0, r7, r0
  EXPECT_FALSE(decode_mov_immediate(code({0xF04F})));          // truncated
}

TEST(ItResult, IteOfTwoConstantsToOneRegister) {
  // ite cs; movcs r0, #1; movcc r0, #0 (mbedtls_mpi_core_mla's carry)
  auto r = it_result(0x2C, code({0x2001, 0x2000}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rd, 0);
  EXPECT_EQ(r->then_value, 1u);
  EXPECT_EQ(r->else_value, 0u);
  EXPECT_EQ(r->bytes, 4);
  // The flags it offers for each outcome decide the IT that way.
  for (const auto& [flags, first] : {std::pair{r->then_flags, true}, {r->else_flags, false}}) {
    ItBlock it;
    it.start(0x2C, flags);
    EXPECT_EQ(it.next_executes(), first);
    EXPECT_EQ(it.next_executes(), !first);
  }
  // ite ls; movls r5, #0; movhi r5, #1 and a 32-bit pair
  EXPECT_TRUE(it_result(0x94, code({0x2500, 0x2501})));
  auto wide = it_result(0x2C, code({0xF04F, 0x0900, 0xF04F, 0x0901}));
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->rd, 9);
  EXPECT_EQ(wide->bytes, 8);
}

TEST(ItResult, NothingWhenTheRegisterCannotTell) {
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x2001})));  // the same value either way
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x2100})));  // two registers
  EXPECT_FALSE(it_result(0x24, code({0x2001, 0x2000})));  // itt cs: both or neither run
  EXPECT_FALSE(it_result(0x28, code({0x2001, 0x2000})));  // it cs: one instruction
  EXPECT_FALSE(it_result(0x2A, code({0x2001, 0x2000, 0x2002})));  // ite + t: three
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x4628})));  // the other one copies a register
  EXPECT_FALSE(it_result(0x2C, code({0xF04F, 0x0D01, 0xF04F, 0x0D00})));  // SP
}

}  // namespace
}  // namespace fathom::sim
