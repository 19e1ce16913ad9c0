#include "protocol/record.h"

#include <gtest/gtest.h>

#include <string>

#include "record_builder.h"
#include "util/crc32.h"

namespace fathom::protocol {
namespace {

using testing::record_line;

// A line with a correct CRC over whatever `covered` holds (which must end with a space).
std::string with_crc(const std::string& covered) {
  return covered + fmt::format("#{:08x}", util::crc32(covered));
}

TEST(ProtocolRecord, ParsesValidRecord) {
  const std::string line = record_line(7, "SAMPLE", {"aes_128_ctr", "0", "1200", "5230"});
  auto r = parse_line(line, 12);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->has_value());
  const Record& rec = **r;
  EXPECT_EQ(rec.seq, 7u);
  EXPECT_EQ(rec.type, "SAMPLE");
  EXPECT_EQ(rec.fields, (std::vector<std::string>{"aes_128_ctr", "0", "1200", "5230"}));
  EXPECT_EQ(rec.line_number, 12u);
}

TEST(ProtocolRecord, CrcCoversBytesUpToTheSpaceBeforeHash) {
  // From Python: "%08x" % zlib.crc32(b"@F 0 END 0 0 ") -> 0d3647dc
  EXPECT_TRUE(parse_line("@F 0 END 0 0 #0d3647dc", 1));
  // The CRC of the same bytes without the final space must not verify.
  const std::string wrong = fmt::format("@F 0 END 0 0 #{:08x}", util::crc32("@F 0 END 0 0"));
  EXPECT_FALSE(parse_line(wrong, 1));
}

TEST(ProtocolRecord, RecordWithoutFieldsIsValid) {
  auto r = parse_line(record_line(3, "PING", {}), 1);
  ASSERT_TRUE(r && r->has_value());
  EXPECT_TRUE((*r)->fields.empty());
}

TEST(ProtocolRecord, FreeTextIsNotARecord) {
  for (const std::string& text :
       std::vector<std::string>{"", "hello", "@F", "@Foo 1 2", " @F 0 END 0 0 #00000000",
                                "@f 0 END", std::string("\0\xff", 2)}) {
    auto r = parse_line(text, 1);
    ASSERT_TRUE(r) << text;
    EXPECT_FALSE(r->has_value()) << text;
  }
}

TEST(ProtocolRecord, IgnoresTrailingCarriageReturn) {
  auto r = parse_line(record_line(0, "CAL", {"1", "2"}) + "\r", 1);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_TRUE(r->has_value());
  EXPECT_EQ((*r)->fields.back(), "2");
}

TEST(ProtocolRecord, FlippedByteIsCrcMismatch) {
  const std::string good = record_line(4, "SAMPLE", {"op", "1", "100", "200"});
  const uint32_t sent = util::crc32(good.substr(0, good.size() - 9));
  std::string bad = good;
  bad[good.find("100")] = '9';  // "900": still well-formed, wrong CRC
  auto r = parse_line(bad, 12);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            fmt::format("line 12: record CRC mismatch (expected {:08x}, computed {:08x})", sent,
                        util::crc32(bad.substr(0, bad.size() - 9))));
}

TEST(ProtocolRecord, EveryFlippedBitIsDetected) {
  const std::string good = record_line(4, "KAT", {"op", "vec", "PASS"});
  for (size_t i = 3; i < good.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = good;
      bad[i] = static_cast<char>(bad[i] ^ (1 << bit));
      if (bad == good) continue;
      auto r = parse_line(bad, 1);
      // Either rejected as an error or (if "@F " itself broke) free text; never a record.
      EXPECT_FALSE(r && r->has_value()) << "byte " << i << " bit " << bit;
    }
  }
}

TEST(ProtocolRecord, BadTrailerIsError) {
  std::string good = record_line(0, "END", {"0", "0"});
  for (int n = 1; good.find_first_of("abcdef", good.size() - 8) == std::string::npos; ++n)
    good = record_line(0, "END", {"0", std::to_string(n)});  // want a CRC with a letter in it
  std::string upper = good;
  for (size_t i = upper.size() - 8; i < upper.size(); ++i)
    upper[i] = static_cast<char>(std::toupper(static_cast<unsigned char>(upper[i])));
  const std::string no_hash = good.substr(0, good.size() - 9) + " " + good.substr(good.size() - 8);
  const std::string short_crc = good.substr(0, good.size() - 1);
  for (const auto& line : {no_hash, short_crc, upper, std::string("@F 0 END 0 0")}) {
    auto r = parse_line(line, 5);
    ASSERT_FALSE(r) << line;
    EXPECT_NE(r.error().message.find("line 5: "), std::string::npos);
  }
}

TEST(ProtocolRecord, TooLongRecordIsError) {
  // A record line of exactly 512 bytes with its newline is allowed; 513 is not.
  const std::string base = record_line(0, "LOG", {"x"});
  const size_t pad = 511 - base.size();
  const std::string at_limit = record_line(0, "LOG", {std::string(1 + pad, 'x')});
  ASSERT_EQ(at_limit.size() + 1, 512u);
  EXPECT_TRUE(parse_line(at_limit, 1));
  EXPECT_TRUE(parse_line(at_limit + "\r", 1));  // the '\r' is not counted
  const std::string over = record_line(0, "LOG", {std::string(2 + pad, 'x')});
  auto r = parse_line(over, 9);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "line 9: record longer than 512 bytes (513 bytes with its newline)");
  EXPECT_FALSE(parse_line("@F " + std::string(100000, '7'), 1));
}

TEST(ProtocolRecord, MalformedStructureWithValidCrcIsError) {
  const std::vector<std::string> covered_variants = {
      "@F 0  END 0 0 ",                   // two spaces
      "@F 0 END 0 a#b ",                  // '#' inside a field
      "@F x END 0 0 ",                    // non-numeric seq
      "@F 01 END 0 0 ",                   // leading zero
      "@F 0 end 0 0 ",                    // lower-case type
      "@F 0 ",                            // no type
      "@F 99999999999999999999 END ",     // seq overflows 64 bits
      std::string("@F 0 END a\0b ", 13),  // NUL in a field
      "@F 0 END \x7f ",                   // DEL
  };
  for (const auto& covered : covered_variants) {
    auto r = parse_line(with_crc(covered), 3);
    ASSERT_FALSE(r) << covered;
    EXPECT_EQ(r.error().message.rfind("line 3: ", 0), 0u);
  }
}

TEST(ProtocolRecord, ParseDecimalAcceptsCanonicalUnsigned) {
  EXPECT_EQ(parse_decimal_u64("0"), 0u);
  EXPECT_EQ(parse_decimal_u64("4294967296"), 4294967296u);
  EXPECT_EQ(parse_decimal_u64("18446744073709551615"), UINT64_MAX);
  EXPECT_FALSE(parse_decimal_u64("18446744073709551616"));
  EXPECT_FALSE(parse_decimal_u64(""));
  EXPECT_FALSE(parse_decimal_u64("007"));
  EXPECT_FALSE(parse_decimal_u64("-1"));
  EXPECT_FALSE(parse_decimal_u64("+1"));
  EXPECT_FALSE(parse_decimal_u64("1e3"));
}

}  // namespace
}  // namespace fathom::protocol
