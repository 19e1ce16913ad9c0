// The RUNS record (docs/PROTOCOL.md, protocol 3): an operation that makes another number of
// timed runs than HELLO announced, because the host asked for it (pipeline/run_selection.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "protocol/stream_decoder.h"
#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// HELLO (runs = 10), CAL with 10 cycles of overhead, "sha" with one passing vector.
StreamBuilder preamble() {
  StreamBuilder b;
  b.add("HELLO", {"3", "sim-m33", "c", "mbedtls", "3.6.6", "10", "1"})
      .add("CAL", {"100", "110"})
      .add("KAT", {"sha", "v0", "PASS"})
      .add("KATSUM", {"sha", "1", "1"});
  return b;
}

void add_samples(StreamBuilder& b, uint32_t n) {
  for (uint32_t r = 0; r < n; ++r)
    b.add("SAMPLE", {"sha", std::to_string(r), "0", std::to_string(1010)});
  b.add("MEM", {"sha", "400", "0", "0", "0"});
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

TEST(ProtocolRunsRecord, RunsSetsTheExpectedSamples) {
  StreamBuilder b = preamble();
  b.add("RUNS", {"sha", "2"});
  add_samples(b, 2);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].cycle_samples, (std::vector<uint64_t>{1000, 1000}));
  EXPECT_EQ(s.operations[0].distinct_inputs, 0u);  // RUNS says nothing about the inputs
}

TEST(ProtocolRunsRecord, SamplesBeyondRunsAreRejectedAndMissingOnesCounted) {
  StreamBuilder b = preamble();
  b.add("RUNS", {"sha", "2"});
  add_samples(b, 3);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "SAMPLE for sha run 2 but RUNS announced 2 runs; ignored"))
      << all_errors(s);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 2u);

  StreamBuilder short_run = preamble();
  short_run.add("RUNS", {"sha", "3"});
  add_samples(short_run, 2);
  short_run.end();
  const DecodedStream t = decode_stream(short_run.str());
  EXPECT_TRUE(has_error(t, "operation sha: 2 of 3 timed samples were accepted")) << all_errors(t);
}

TEST(ProtocolRunsRecord, WithoutRunsHellosCountApplies) {
  StreamBuilder b = preamble();
  add_samples(b, 2);
  b.end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "operation sha: 2 of 10 timed samples were accepted")) << all_errors(s);
}

TEST(ProtocolRunsRecord, MisplacedOrRepeatedRunsIsDropped) {
  {
    StreamBuilder b = preamble();
    b.add("RUNS", {"sha", "2"}).add("RUNS", {"sha", "3"});
    add_samples(b, 2);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "second RUNS for sha; ignored")) << all_errors(s);
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 2u);  // the first stays
  }
  {
    StreamBuilder b = preamble();
    b.add("SAMPLE", {"sha", "0", "0", "1010"}).add("RUNS", {"sha", "1"});
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "RUNS for sha after its first SAMPLE; ignored")) << all_errors(s);
  }
  {
    StreamBuilder b = preamble();
    b.add("RUNS", {"sha", "0"});
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "RUNS for sha announces 0 runs; ignored")) << all_errors(s);
  }
  {
    // No passing KATSUM: no timing, so no run count either.
    StreamBuilder b;
    b.add("HELLO", {"3", "b", "c", "l", "v", "10", "1"})
        .add("CAL", {"100", "110"})
        .add("RUNS", {"other", "2"})
        .end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "RUNS for other rejected: the operation has no passing KATSUM"))
        << all_errors(s);
  }
}

TEST(ProtocolRunsRecord, InputsMayRaiseButNotLowerTheRunsAskedFor) {
  {
    // The harness makes max(asked, min_runs): INPUTS above RUNS is the count that applies.
    StreamBuilder b = preamble();
    b.add("RUNS", {"sha", "2"}).add("INPUTS", {"sha", "4"});
    add_samples(b, 4);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(s.errors.empty()) << all_errors(s);
    EXPECT_EQ(s.operations[0].distinct_inputs, 4u);
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 4u);
  }
  {
    // Below HELLO's runs but not below RUNS's: accepted.
    StreamBuilder b = preamble();
    b.add("RUNS", {"sha", "2"}).add("INPUTS", {"sha", "2"});
    add_samples(b, 2);
    b.end();
    EXPECT_TRUE(decode_stream(b.str()).errors.empty());
  }
  {
    StreamBuilder b = preamble();
    b.add("RUNS", {"sha", "3"}).add("INPUTS", {"sha", "2"});
    add_samples(b, 3);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "INPUTS for sha announces 2 runs, fewer than RUNS's 3")) << all_errors(s);
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);
  }
  {
    StreamBuilder b = preamble();
    b.add("INPUTS", {"sha", "10"}).add("RUNS", {"sha", "2"});
    add_samples(b, 10);
    b.end();
    const DecodedStream s = decode_stream(b.str());
    EXPECT_TRUE(has_error(s, "RUNS for sha after its INPUTS; ignored")) << all_errors(s);
    EXPECT_EQ(s.operations[0].cycle_samples.size(), 10u);
  }
}

}  // namespace
}  // namespace fathom::protocol
