// The INPUTS and BYTES records (docs/PROTOCOL.md): an operation timed over distinct inputs,
// and the sizes of the objects an operation produces or consumes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

#include "protocol/stream_decoder.h"
#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// HELLO (runs = 2), CAL with 10 cycles of overhead, "sign" with one passing vector and the
// object sizes its KAT reports.
StreamBuilder preamble() {
  StreamBuilder b;
  b.add("HELLO", {"3", "sim-m33", "clean", "pqclean", "0.8.1", "2", "0"})
      .add("CAL", {"100", "110"})
      .add("BYTES", {"sign", "public_key", "1312"})
      .add("BYTES", {"sign", "signature", "2420"})
      .add("KAT", {"sign", "nist_kat_count0_sig", "PASS"})
      .add("KATSUM", {"sign", "1", "1"});
  return b;
}

// `n` samples of 1000 + run cycles (after the overhead), then MEM.
void add_samples(StreamBuilder& b, uint32_t n) {
  for (uint32_t r = 0; r < n; ++r)
    b.add("SAMPLE", {"sign", std::to_string(r), "0", std::to_string(1010 + r)});
  b.add("MEM", {"sign", "40000", "0", "0", "0"});
}

bool has_error(const DecodedStream& s, const std::string& fragment) {
  return std::any_of(s.errors.begin(), s.errors.end(),
                     [&](const std::string& e) { return e.find(fragment) != std::string::npos; });
}

std::string all_errors(const DecodedStream& s) {
  std::string out;
  for (const auto& e : s.errors) out += e + "\n";
  return out;
}

TEST(ProtocolInputsRecord, InputsRaisesTheExpectedRunsAndIsKept) {
  StreamBuilder b = preamble();
  b.add("INPUTS", {"sign", "5"});
  add_samples(b, 5);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations[0];
  EXPECT_EQ(op.distinct_inputs, 5u);
  EXPECT_EQ(op.cycle_samples.size(), 5u);
  ASSERT_TRUE(op.cycles);
  EXPECT_EQ(op.cycles->count, 5u);
  EXPECT_EQ(op.cycles->max, 1004u);
}

TEST(ProtocolInputsRecord, WithoutInputsSamplesBeyondHelloRunsAreRejected) {
  StreamBuilder b = preamble();
  add_samples(b, 3);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "SAMPLE for sign run 2 but HELLO announced 2 runs")) << all_errors(s);
  EXPECT_EQ(s.operations[0].distinct_inputs, 0u);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 2u);
}

TEST(ProtocolInputsRecord, SamplesBeyondInputsAreRejectedAndMissingOnesReported) {
  StreamBuilder b = preamble();
  b.add("INPUTS", {"sign", "4"});
  add_samples(b, 5);
  b.end();
  DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "SAMPLE for sign run 4 but INPUTS announced 4 runs")) << all_errors(s);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 4u);

  StreamBuilder short_stream = preamble();
  short_stream.add("INPUTS", {"sign", "4"});
  add_samples(short_stream, 3);
  short_stream.end();
  s = decode_stream(short_stream.str());
  EXPECT_TRUE(has_error(s, "operation sign: 3 of 4 timed samples were accepted"))
      << all_errors(s);
}

TEST(ProtocolInputsRecord, RejectsFewerRunsThanHelloZeroAndBadNumbers) {
  for (const std::string count : {"1", "0", "-3", "4294967296", "x"}) {
    StreamBuilder b = preamble();
    b.add("INPUTS", {"sign", count});
    add_samples(b, 2);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_FALSE(s.errors.empty()) << count;
    EXPECT_EQ(s.operations[0].distinct_inputs, 0u) << count;
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 2u) << count;  // HELLO's runs still apply
  }
}

TEST(ProtocolInputsRecord, RejectsInputsAfterSamplesTwiceOrWithoutPassingKat) {
  StreamBuilder late = preamble();
  late.add("SAMPLE", {"sign", "0", "0", "1010"}).add("INPUTS", {"sign", "3"});
  late.end();
  DecodedStream s = decode_stream(late.str());
  EXPECT_TRUE(has_error(s, "INPUTS for sign after its first SAMPLE")) << all_errors(s);
  EXPECT_EQ(s.operations[0].distinct_inputs, 0u);

  StreamBuilder twice = preamble();
  twice.add("INPUTS", {"sign", "3"}).add("INPUTS", {"sign", "4"});
  s = decode_stream(twice.str());
  EXPECT_TRUE(has_error(s, "second INPUTS for sign")) << all_errors(s);
  EXPECT_EQ(s.operations[0].distinct_inputs, 3u);

  StreamBuilder unknown = preamble();
  unknown.add("INPUTS", {"verify", "3"});
  s = decode_stream(unknown.str());
  EXPECT_TRUE(has_error(s, "INPUTS for verify rejected: the operation has no passing KATSUM"))
      << all_errors(s);

  StreamBuilder wrong_fields = preamble();
  wrong_fields.add("INPUTS", {"sign"});
  s = decode_stream(wrong_fields.str());
  EXPECT_TRUE(has_error(s, "INPUTS record has 1 fields, expected 2")) << all_errors(s);
}

TEST(ProtocolInputsRecord, SkipAfterInputsDropsTheDistribution) {
  StreamBuilder b = preamble();
  b.add("INPUTS", {"sign", "3"}).add("SAMPLE", {"sign", "0", "0", "1010"});
  b.add("SKIP", {"sign", "run-failed"}).end(1);
  const DecodedStream s = decode_stream(b.str());
  EXPECT_EQ(s.operations[0].distinct_inputs, 0u);
  EXPECT_TRUE(s.operations[0].cycle_samples.empty());
}

TEST(ProtocolBytesRecord, KeepsObjectSizesPerOperation) {
  StreamBuilder b = preamble();
  add_samples(b, 2);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  const std::map<std::string, uint64_t> expected = {{"public_key", 1312}, {"signature", 2420}};
  EXPECT_EQ(s.operations[0].object_bytes, expected);
}

TEST(ProtocolBytesRecord, RejectsDuplicatesBadNamesAndBadNumbers) {
  StreamBuilder b = preamble();
  b.add("BYTES", {"sign", "public_key", "9"})        // second public_key: ignored
      .add("BYTES", {"sign", "Public-Key", "9"})     // not [a-z0-9_]+
      .add("BYTES", {"sign", "secret_key", "-1"})    // not a number
      .add("BYTES", {"sign", "secret_key", "4294967296"})  // above 32 bits
      .add("BYTES", {"Sign", "secret_key", "9"})     // bad operation name
      .add("BYTES", {"sign", "secret_key"});         // missing field
  add_samples(b, 2);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "second BYTES public_key for sign")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "BYTES object name 'Public-Key' is not [a-z0-9_]+")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "BYTES field bytes '-1'")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "BYTES field bytes '4294967296'")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "BYTES record names operation 'Sign'")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "BYTES record has 2 fields, expected 3")) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].object_bytes.at("public_key"), 1312u);
  EXPECT_EQ(s.operations[0].object_bytes.count("secret_key"), 0u);
  EXPECT_EQ(s.operations[0].object_bytes.count("Public-Key"), 0u);
}

}  // namespace
}  // namespace fathom::protocol
