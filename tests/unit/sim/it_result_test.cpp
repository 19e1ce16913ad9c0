// sim::decode_register_write, sim::it_result, sim::decode_register_compare and
// sim::compared_move_result on Thumb encodings as GNU as emits them (Arm ARM v7-M A7.7.75/76
// MOV, A7.7.3 ADD, A7.7.174 SUB, A7.7.28 CMP, A7.7.38 IT): which ITs' outcomes the registers
// tell.
#include "sim/it_result.h"

#include <gtest/gtest.h>

#include <vector>

#include "sim/it_block.h"

namespace fathom::sim {
namespace {

// Little-endian bytes of Thumb halfwords.
std::vector<uint8_t> code(const std::vector<uint16_t>& halfwords) {
  std::vector<uint8_t> out;
  for (uint16_t h : halfwords) out.push_back(h & 0xFF), out.push_back(h >> 8);
  return out;
}

struct Case {
  std::vector<uint16_t> halfwords;
  const char* text;
  uint8_t rd, base;
  uint32_t offset;
  uint8_t size;
};

TEST(DecodeRegisterWrite, ConstantsAndRegisterPlusConstant) {
  const Case cases[] = {
      {{0x2501}, "movs r5, #1 (mov inside an IT)", 5, kNoBase, 1, 2},
      {{0xF04F, 0x0901}, "mov.w r9, #1", 9, kNoBase, 1, 4},
      {{0xF04F, 0x32FF}, "mov.w r2, #0xffffffff", 2, kNoBase, 0xFFFFFFFF, 4},
      {{0xF44F, 0x307F}, "mov.w r0, #0x3fc00", 0, kNoBase, 0x3FC00, 4},
      {{0xF241, 0x2134}, "movw r1, #0x1234", 1, kNoBase, 0x1234, 4},
      {{0x4628}, "mov r0, r5", 0, 5, 0, 2},
      {{0x46E1}, "mov r9, ip", 9, 12, 0, 2},
      {{0xEA4F, 0x0300}, "mov.w r3, r0", 3, 0, 0, 4},
      {{0x1C68}, "adds r0, r5, #1 (add inside an IT)", 0, 5, 1, 2},
      {{0x1EE8}, "subs r0, r5, #3", 0, 5, 0u - 3, 2},
      {{0xF10C, 0x0301}, "add.w r3, ip, #1", 3, 12, 1, 4},
      {{0xF5AC, 0x337F}, "sub.w r3, ip, #0x3fc00", 3, 12, 0u - 0x3FC00, 4},
      {{0xF604, 0x73FF}, "addw r3, r4, #0xfff", 3, 4, 0xFFF, 4},
      {{0xF2A4, 0x1323}, "subw r3, r4, #0x123", 3, 4, 0u - 0x123, 4},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const auto bytes = code(c.halfwords);
    const auto w = decode_register_write(bytes);
    ASSERT_TRUE(w);
    EXPECT_EQ(w->rd, c.rd);
    EXPECT_EQ(w->base, c.base);
    EXPECT_EQ(w->offset, c.offset);
    EXPECT_EQ(w->size_bytes, c.size);
  }
}

TEST(DecodeRegisterWrite, AnythingElseIsNothing) {
  EXPECT_FALSE(decode_register_write(code({0xF05F, 0x0001})));  // movs.w r0, #1 (sets flags)
  EXPECT_FALSE(decode_register_write(code({0xF114, 0x0301})));  // adds.w r3, r4, #1
  EXPECT_FALSE(decode_register_write(code({0xF06F, 0x0000})));  // mvn.w r0, #0
  EXPECT_FALSE(decode_register_write(code({0xEA4F, 0x0340})));  // mov.w r3, r0, lsl #1
  EXPECT_FALSE(decode_register_write(code({0x1838})));          // adds r0, r7, r0
  EXPECT_FALSE(decode_register_write(code({0xF04F})));          // truncated
}

TEST(ItResult, IteOfTwoConstantsToOneRegister) {
  // ite cs; movcs r0, #1; movcc r0, #0 (mbedtls_mpi_core_mla's carry)
  auto r = it_result(0x2C, code({0x2001, 0x2000}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rd, 0);
  EXPECT_EQ(r->base, kNoBase);
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

TEST(ItResult, IteOfOneRegisterPlusTwoConstants) {
  // ite cs; movcs r0, r5; addcc r0, r5, #1 (mbedtls_mpi_core_sub's borrow)
  auto r = it_result(0x2C, code({0x4628, 0x1C68}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rd, 0);
  EXPECT_EQ(r->base, 5);
  EXPECT_EQ(r->then_value, 0u);
  EXPECT_EQ(r->else_value, 1u);
  // ite cs; movcs r3, ip; addcc.w r3, ip, #1 (mbedtls_mpi_core_gcd_modinv_odd)
  auto wide = it_result(0x2C, code({0x4663, 0xF10C, 0x0301}));
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->base, 12);
  EXPECT_EQ(wide->bytes, 6);
}

TEST(ItResult, NothingWhenTheRegistersCannotTell) {
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x2001})));  // the same value either way
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x2100})));  // two registers
  EXPECT_FALSE(it_result(0x24, code({0x2001, 0x2000})));  // itt cs: both or neither run
  EXPECT_FALSE(it_result(0x28, code({0x2001, 0x2000})));  // it cs: one instruction
  EXPECT_FALSE(it_result(0x2A, code({0x2001, 0x2000, 0x2002})));  // ite + t: three
  EXPECT_FALSE(it_result(0x2C, code({0x2001, 0x4628})));  // a constant or a register
  EXPECT_FALSE(it_result(0x2C, code({0x4628, 0x1C70})));  // r5 or r6 + 1: two bases
  EXPECT_FALSE(it_result(0x2C, code({0x4600, 0x1C40})));  // r0 from r0: its old value
  EXPECT_FALSE(it_result(0x2C, code({0xF04F, 0x0D01, 0xF04F, 0x0D00})));  // SP
}

TEST(DecodeRegisterCompare, RegisterFormsWithoutAShift) {
  const auto t1 = decode_register_compare(code({0x428B}));  // cmp r3, r1
  ASSERT_TRUE(t1);
  EXPECT_EQ(t1->rn, 3);
  EXPECT_EQ(t1->rm, 1);
  EXPECT_EQ(t1->size_bytes, 2);
  const auto t2 = decode_register_compare(code({0x45E1}));  // cmp r9, ip
  ASSERT_TRUE(t2);
  EXPECT_EQ(t2->rn, 9);
  EXPECT_EQ(t2->rm, 12);
  const auto t3 = decode_register_compare(code({0xEBB3, 0x0F01}));  // cmp.w r3, r1
  ASSERT_TRUE(t3);
  EXPECT_EQ(t3->rn, 3);
  EXPECT_EQ(t3->rm, 1);
  EXPECT_EQ(t3->size_bytes, 4);
  EXPECT_FALSE(decode_register_compare(code({0xEBB3, 0x0F41})));  // cmp.w r3, r1, lsl #1
  EXPECT_FALSE(decode_register_compare(code({0x2B01})));          // cmp r3, #1
  EXPECT_FALSE(decode_register_compare(code({0x42CB})));          // cmn r3, r1
}

TEST(ComparedMoveResult, AMinimumTellsFromRdEqualsRm) {
  // cmp r3, r1; it cs; movcs r3, r1 (mbedtls_mpi_core_mla's loop bound)
  auto r = compared_move_result(0x28, code({0x428B}), code({0x460B, 0xBF00}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->rd, 3);
  EXPECT_EQ(r->base, 1);
  EXPECT_EQ(r->then_value, 0u);
  EXPECT_TRUE(r->else_when_different);
  EXPECT_EQ(r->compare_bytes, 2);
  EXPECT_EQ(r->bytes, 2);
  for (const auto& [flags, executes] : {std::pair{r->then_flags, true}, {r->else_flags, false}}) {
    ItBlock it;
    it.start(0x28, flags);
    EXPECT_EQ(it.next_executes(), executes);
  }
  // cmp.w r1, r3 (the other order); it ls; movls r3, r1: 4 bytes of CMP before the IT
  auto wide = compared_move_result(0x98, code({0xEBB1, 0x0F03}), code({0x460B, 0xBF00}));
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->compare_bytes, 4);
}

TEST(ComparedMoveResult, NothingWhenEqualRegistersCouldMeanEitherOutcome) {
  const auto before = code({0x428B}), move = code({0x460B, 0xBF00});
  EXPECT_FALSE(compared_move_result(0x88, before, move));  // it hi: equal values skip it
  EXPECT_FALSE(compared_move_result(0x38, before, move));  // it cc
  EXPECT_FALSE(compared_move_result(0x18, before, move));  // it ne
  EXPECT_FALSE(compared_move_result(0x2C, before, move));  // ite cs: two instructions
  EXPECT_FALSE(compared_move_result(0x28, code({0x4293}), move));  // cmp r3, r2: other pair
  EXPECT_FALSE(compared_move_result(0x28, code({0x2B01}), move));  // cmp r3, #1
  EXPECT_FALSE(compared_move_result(0x28, before, code({0x1C4B, 0xBF00})));  // adds r3, r1, #1
  EXPECT_FALSE(compared_move_result(0x28, before, code({0x2301, 0xBF00})));  // movs r3, #1
}

}  // namespace
}  // namespace fathom::sim
