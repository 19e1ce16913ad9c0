#include "util/crc32.h"

#include <gtest/gtest.h>

#include <string>

namespace fathom::util {
namespace {

TEST(Crc32, CheckValueOfStandardString) { EXPECT_EQ(crc32("123456789"), 0xcbf43926u); }

TEST(Crc32, EmptyInputIsZero) { EXPECT_EQ(crc32(""), 0u); }

TEST(Crc32, KnownValuesMatchZlib) {
  // Values from Python: zlib.crc32(b"a"), zlib.crc32(b"\x00"), zlib.crc32(b"\xff" * 4).
  EXPECT_EQ(crc32("a"), 0xe8b7be43u);
  EXPECT_EQ(crc32(std::string_view("\0", 1)), 0xd202ef8du);
  EXPECT_EQ(crc32("\xff\xff\xff\xff"), 0xffffffffu);
}

TEST(Crc32, IncrementalEqualsOneShot) {
  const std::string text = "@F 0 HELLO 1 sim-m33 baseline mbedtls 3.6.6 10 1 ";
  for (size_t split = 0; split <= text.size(); ++split) {
    const std::string_view all(text);
    EXPECT_EQ(crc32(all.substr(split), crc32(all.substr(0, split))), crc32(all)) << split;
  }
}

TEST(Crc32, SingleBitFlipChangesValue) {
  std::string text = "@F 3 SAMPLE op 0 100 200 ";
  const uint32_t original = crc32(text);
  text[7] ^= 0x01;
  EXPECT_NE(crc32(text), original);
}

}  // namespace
}  // namespace fathom::util
