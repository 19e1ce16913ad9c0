// The SECRETS record (docs/PROTOCOL.md, `fathom ct`): the timed runs of an operation each used
// another variant of its secret. It must announce exactly the runs asked for and precede them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "protocol/stream_decoder.h"
#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// HELLO with 3 runs, "mac" with a passing vector.
StreamBuilder preamble() {
  StreamBuilder b;
  b.add("HELLO", {"3", "sim-m33", "mbedtls-ct", "mbedtls", "3.6.6", "3", "0"})
      .add("CAL", {"100", "110"})
      .add("KAT", {"mac", "equal-tags-accepted", "PASS"})
      .add("KATSUM", {"mac", "1", "1"});
  return b;
}

void add_samples(StreamBuilder& b, uint32_t n) {
  for (uint32_t r = 0; r < n; ++r)
    b.add("SAMPLE", {"mac", std::to_string(r), "0", std::to_string(150 + r)});
  b.add("MEM", {"mac", "400", "0", "0", "0"});
}

bool has_error(const DecodedStream& s, const std::string& fragment) {
  return std::any_of(s.errors.begin(), s.errors.end(),
                     [&](const std::string& e) { return e.find(fragment) != std::string::npos; });
}

TEST(ProtocolSecretsRecord, SecretsBeforeTheSamplesIsKept) {
  StreamBuilder b = preamble();
  b.add("SECRETS", {"mac", "3"});
  add_samples(b, 3);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty());
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].secret_variants, 3u);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);
}

TEST(ProtocolSecretsRecord, AnotherCountThanTheRunsZeroOrGarbageIsRejected) {
  for (const std::string count : {"2", "4", "0", "-1", "4294967296", "x"}) {
    StreamBuilder b = preamble();
    b.add("SECRETS", {"mac", count});
    add_samples(b, 3);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_FALSE(s.errors.empty()) << count;
    EXPECT_EQ(s.operations[0].secret_variants, 0u) << count;
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u) << count;
  }
}

TEST(ProtocolSecretsRecord, SecretsAfterASampleOrTwiceIsRejected) {
  StreamBuilder late = preamble();
  late.add("SAMPLE", {"mac", "0", "0", "150"}).add("SECRETS", {"mac", "3"});
  late.add("SAMPLE", {"mac", "1", "0", "151"}).add("SAMPLE", {"mac", "2", "0", "152"});
  late.add("MEM", {"mac", "400", "0", "0", "0"});
  late.end();
  DecodedStream s = decode_stream(late.str());
  EXPECT_TRUE(has_error(s, "SECRETS for mac after its first SAMPLE"));
  EXPECT_EQ(s.operations[0].secret_variants, 0u);

  StreamBuilder twice = preamble();
  twice.add("SECRETS", {"mac", "3"}).add("SECRETS", {"mac", "3"});
  add_samples(twice, 3);
  twice.end();
  s = decode_stream(twice.str());
  EXPECT_TRUE(has_error(s, "second SECRETS for mac"));
  EXPECT_EQ(s.operations[0].secret_variants, 3u);
}

}  // namespace
}  // namespace fathom::protocol
