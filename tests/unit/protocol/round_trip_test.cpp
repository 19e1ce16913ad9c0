// Both ends of docs/PROTOCOL.md: records written by the firmware's fathom_protocol.c (compiled
// for the host into this test binary) must parse back exactly.
#include <gtest/gtest.h>

#include <string>

#include "console_capture.h"
#include "fathom_protocol.h"
#include "protocol/record.h"
#include "protocol/stream_decoder.h"

namespace fathom::protocol {
namespace {

using testing::console_capture;

class ProtocolRoundTrip : public ::testing::Test {
 protected:
  void SetUp() override {
    fathom_rec_reset();
    console_capture() = {};
  }

  // The single record written since SetUp, parsed.
  Record only_record() {
    const auto& writes = console_capture().writes;
    EXPECT_EQ(writes.size(), 1u);
    if (writes.empty()) return {};
    const std::string& line = writes.front();
    EXPECT_EQ(line.back(), '\n');
    auto parsed = parse_line(std::string_view(line).substr(0, line.size() - 1), 1);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().message);
    if (!parsed || !*parsed) {
      ADD_FAILURE() << "not a record: " << line;
      return {};
    }
    return **parsed;
  }
};

TEST_F(ProtocolRoundTrip, FieldsParseBackExactly) {
  fathom_rec_begin("SAMPLE");
  fathom_rec_str("ecdsa_p256_sign");
  fathom_rec_u32(0);
  fathom_rec_u32(4294967295u);
  fathom_rec_u64(18446744073709551615ull);
  fathom_rec_u64(4294967296ull);
  fathom_rec_u32(1234567);
  fathom_rec_end();
  const Record r = only_record();
  EXPECT_EQ(r.seq, 0u);
  EXPECT_EQ(r.type, "SAMPLE");
  EXPECT_EQ(r.fields, (std::vector<std::string>{"ecdsa_p256_sign", "0", "4294967295",
                                                "18446744073709551615", "4294967296", "1234567"}));
  EXPECT_EQ(fathom_rec_count(), 1u);
}

TEST_F(ProtocolRoundTrip, SequenceNumbersCount) {
  for (int i = 0; i < 3; ++i) {
    fathom_rec_begin("KAT");
    fathom_rec_str("op");
    fathom_rec_end();
  }
  ASSERT_EQ(console_capture().writes.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    const std::string& line = console_capture().writes[i];
    auto parsed = parse_line(std::string_view(line).substr(0, line.size() - 1), i + 1);
    ASSERT_TRUE(parsed && *parsed);
    EXPECT_EQ((*parsed)->seq, i);
  }
  EXPECT_EQ(fathom_rec_count(), 3u);
}

TEST_F(ProtocolRoundTrip, TextFieldsAreMadeWellFormed) {
  fathom_rec_begin("KAT");
  fathom_rec_str("rfc 6979 #2\t\x80");
  fathom_rec_str("");
  fathom_rec_str(nullptr);
  fathom_rec_str("!~");
  fathom_rec_end();
  EXPECT_EQ(only_record().fields, (std::vector<std::string>{"rfc_6979__2__", "-", "-", "!~"}));
}

TEST_F(ProtocolRoundTrip, LongestRecordFitsAndLongerIsDroppedVisibly) {
  // "@F 0 KAT " + field + " #xxxxxxxx\n" == 512 bytes when the field has 512 - 20 bytes.
  const std::string fits(512 - 20, 'v');
  fathom_rec_begin("KAT");
  fathom_rec_str(fits.c_str());
  fathom_rec_end();
  ASSERT_EQ(console_capture().bytes.size(), 512u);
  EXPECT_EQ(only_record().fields.front(), fits);

  console_capture() = {};
  const std::string too_long(512 - 19, 'v');
  fathom_rec_begin("KAT");
  fathom_rec_str(too_long.c_str());
  fathom_rec_end();
  const std::string& out = console_capture().bytes;
  EXPECT_EQ(out, "fathom: record 1 KAT is longer than 512 bytes; dropped\n");
  EXPECT_EQ(fathom_rec_count(), 2u);  // the number is consumed, so the host sees a gap
}

TEST_F(ProtocolRoundTrip, EndWithoutBeginWritesNothing) {
  fathom_rec_end();
  fathom_rec_u32(5);
  EXPECT_TRUE(console_capture().bytes.empty());
  EXPECT_EQ(fathom_rec_count(), 0u);
}

TEST_F(ProtocolRoundTrip, HarnessShapedStreamDecodesCompletely) {
  fathom_rec_begin("HELLO");
  fathom_rec_u32(FATHOM_PROTOCOL_VERSION);
  fathom_rec_str("sim-m33");
  fathom_rec_str("baseline");
  fathom_rec_str("mbedtls");
  fathom_rec_str("3.6.6");
  fathom_rec_u32(2);
  fathom_rec_u32(1);
  fathom_rec_end();
  fathom_rec_begin("CAL");
  fathom_rec_u32(4294967290u);
  fathom_rec_u32(4294967293u);  // 3 cycles overhead
  fathom_rec_end();
  fathom_rec_begin("KAT");
  fathom_rec_str("sha256");
  fathom_rec_str("fips180-2-abc");
  fathom_rec_str("PASS");
  fathom_rec_end();
  fathom_rec_begin("KATSUM");
  fathom_rec_str("sha256");
  fathom_rec_u32(1);
  fathom_rec_u32(1);
  fathom_rec_end();
  const uint32_t t[][2] = {{4294967295u, 1000u}, {2000u, 3003u}};
  for (uint32_t run = 0; run < 2; ++run) {
    fathom_rec_begin("SAMPLE");
    fathom_rec_str("sha256");
    fathom_rec_u32(run);
    fathom_rec_u32(t[run][0]);
    fathom_rec_u32(t[run][1]);
    fathom_rec_end();
  }
  fathom_rec_begin("MEM");
  fathom_rec_str("sha256");
  fathom_rec_u32(312);
  fathom_rec_u32(0);
  fathom_rec_u32(0);
  fathom_rec_u32(0);
  fathom_rec_end();
  fathom_rec_begin("ISOLATION");
  fathom_rec_str("snapshot");
  fathom_rec_end();
  const uint32_t records = fathom_rec_count();
  fathom_rec_begin("END");
  fathom_rec_u32(0);
  fathom_rec_u32(records);
  fathom_rec_end();

  const DecodedStream s = decode_stream(console_capture().bytes);
  EXPECT_TRUE(s.errors.empty()) << s.errors.front();
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.hello.board, "sim-m33");
  EXPECT_EQ(s.hello.library_version, "3.6.6");
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations.front();
  EXPECT_EQ(op.kat, model::KatStatus::kPassed);
  // (1000 - 4294967295) mod 2^32 = 1001, minus 3; 1003 - 3.
  EXPECT_EQ(op.cycle_samples, (std::vector<uint64_t>{998, 1000}));
  EXPECT_EQ(op.peak_stack_bytes, 312u);
}

}  // namespace
}  // namespace fathom::protocol
