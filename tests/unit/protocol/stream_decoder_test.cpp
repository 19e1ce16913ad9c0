#include "protocol/stream_decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// HELLO (runs = 3), CAL with 10 cycles of probe overhead, two KAT vectors of "sha256".
StreamBuilder preamble(const std::string& board = "sim-m33") {
  StreamBuilder b;
  b.add("HELLO", {"3", board, "baseline", "mbedtls", "3.6.6", "3", "1"})
      .add("CAL", {"100", "110"})
      .add("KAT", {"sha256", "abc", "PASS"})
      .add("KAT", {"sha256", "empty", "PASS"})
      .add("KATSUM", {"sha256", "2", "2"});
  return b;
}

// A complete, valid stream: samples of 1000, 1200 and 1100 cycles after the overhead.
StreamBuilder valid_stream(const std::string& board = "sim-m33") {
  StreamBuilder b = preamble(board);
  b.add("SAMPLE", {"sha256", "0", "5000", "6010"})
      .add("SAMPLE", {"sha256", "1", "7000", "8210"})
      .add("SAMPLE", {"sha256", "2", "9000", "10110"})
      .add("MEM", {"sha256", "412", "64", "2", "96"})
      .end();
  return b;
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

TEST(ProtocolStreamDecoder, DecodesValidStream) {
  StreamBuilder b = valid_stream();
  b.lines.insert(b.lines.begin(), "fathom harness starting");
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.hello.protocol, 3u);
  EXPECT_EQ(s.hello.board, "sim-m33");
  EXPECT_EQ(s.hello.config, "baseline");
  EXPECT_EQ(s.hello.library, "mbedtls");
  EXPECT_EQ(s.hello.library_version, "3.6.6");
  EXPECT_EQ(s.hello.runs, 3u);
  EXPECT_EQ(s.hello.warmup, 1u);
  ASSERT_TRUE(s.cal);
  EXPECT_EQ(*s.cal, (std::pair<uint32_t, uint32_t>{100, 110}));
  EXPECT_EQ(s.log_lines, std::vector<std::string>{"fathom harness starting"});
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations[0];
  EXPECT_EQ(op.operation, "sha256");
  EXPECT_EQ(op.kat, model::KatStatus::kPassed);
  ASSERT_EQ(op.kat_vectors.size(), 2u);
  EXPECT_EQ(op.kat_vectors[1].name, "empty");
  EXPECT_TRUE(op.kat_vectors[1].passed);
  EXPECT_EQ(op.cycle_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  ASSERT_TRUE(op.cycles);
  EXPECT_DOUBLE_EQ(op.cycles->median, 1100);
  EXPECT_EQ(op.cycles->min, 1000u);
  EXPECT_TRUE(op.instruction_samples.empty());
  EXPECT_FALSE(op.instructions);
  EXPECT_EQ(op.peak_stack_bytes, 412u);
  EXPECT_EQ(op.heap_peak_bytes, 64u);
  EXPECT_EQ(op.allocations, 2u);
  EXPECT_EQ(op.heap_start_bytes, 96u);
  EXPECT_TRUE(op.error.empty());
  EXPECT_TRUE(op.has_timing());
}

TEST(ProtocolStreamDecoder, OperationsKeepFirstSeenOrder) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("CAL", {"0", "0"})
      .add("KAT", {"zeta", "v", "PASS"})
      .add("KATSUM", {"zeta", "1", "1"})
      .add("KAT", {"alpha", "v", "PASS"})
      .add("KATSUM", {"alpha", "1", "1"})
      .add("SAMPLE", {"alpha", "0", "0", "5"})
      .add("SAMPLE", {"zeta", "0", "0", "7"})
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 2u);
  EXPECT_EQ(s.operations[0].operation, "zeta");
  EXPECT_EQ(s.operations[1].operation, "alpha");
  EXPECT_EQ(s.operations[1].cycle_samples, std::vector<uint64_t>{5});
}

TEST(ProtocolStreamDecoder, CyclesWrapAroundAt32Bits) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "2", "0"})
      .add("CAL", {"4294967294", "3"})  // overhead (3 - 4294967294) mod 2^32 = 5
      .add("KAT", {"op", "v", "PASS"})
      .add("KATSUM", {"op", "1", "1"})
      .add("SAMPLE", {"op", "0", "4294967040", "256"})         // 512 raw
      .add("SAMPLE", {"op", "1", "4294967295", "4294967295"})  // 0 raw < overhead
      .end();
  const DecodedStream s = decode_stream(b.str());
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].cycle_samples, std::vector<uint64_t>{507});
  EXPECT_TRUE(has_error(s, "took 0 cycles, less than the probe overhead 5")) << all_errors(s);
}

TEST(ProtocolStreamDecoder, FlippedByteDropsRecordAndIsReported) {
  StreamBuilder b = valid_stream();
  std::string& sample1 = b.lines[6];  // SAMPLE run 1: "... 7000 8210 #..."
  ASSERT_NE(sample1.find("8210"), std::string::npos);
  sample1[sample1.find("8210")] = '9';  // 9210: would be 2200 cycles
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 7: record CRC mismatch (expected ")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "line 8: record 6 missing or interleaved: expected seq 6, got 7"))
      << all_errors(s);
  EXPECT_TRUE(has_error(s, "END reports 9 records before it, but 8 arrived intact"))
      << all_errors(s);
  EXPECT_TRUE(has_error(s, "operation sha256: 2 of 3 timed samples were accepted"));
  EXPECT_FALSE(s.completed);
  EXPECT_EQ(s.operations[0].cycle_samples, (std::vector<uint64_t>{1000, 1100}));
}

TEST(ProtocolStreamDecoder, TruncatedLastLineIsError) {
  StreamBuilder b = valid_stream();
  std::string text = b.str();
  text.resize(text.size() - 5);  // cut inside END
  const DecodedStream s = decode_stream(text);
  EXPECT_TRUE(has_error(s, "line 10: truncated record")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "stream truncated: no END record (last intact record: seq 8 on line 9)"))
      << all_errors(s);
  EXPECT_FALSE(s.completed);
  // What arrived before the truncation is still reported.
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);

  // Cut right after "@F": still a record that lost its end, not free text.
  const DecodedStream s2 = decode_stream(preamble().str() + "@F");
  EXPECT_TRUE(has_error(s2, "line 6: truncated record")) << all_errors(s2);
  EXPECT_TRUE(s2.log_lines.empty());
}

TEST(ProtocolStreamDecoder, UnterminatedFreeTextIsKept) {
  const DecodedStream s = decode_stream(valid_stream().str() + "bye");
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_EQ(s.log_lines, std::vector<std::string>{"bye"});
}

TEST(ProtocolStreamDecoder, MissingEndIsTruncation) {
  StreamBuilder b = valid_stream();
  b.lines.pop_back();
  const DecodedStream s = decode_stream(b.str());
  ASSERT_EQ(s.errors.size(), 1u) << all_errors(s);
  EXPECT_EQ(s.errors[0], "stream truncated: no END record (last intact record: seq 8 on line 9)");
  EXPECT_FALSE(s.completed);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);
}

TEST(ProtocolStreamDecoder, EmptyStreamIsTruncation) {
  const DecodedStream s = decode_stream("");
  EXPECT_FALSE(s.completed);
  EXPECT_TRUE(has_error(s, "no records at all"));
  EXPECT_TRUE(s.operations.empty());
}

TEST(ProtocolStreamDecoder, InterleavedStreamsNeverMixNumbers) {
  // Two images' consoles alternating line by line; the second has different samples.
  StreamBuilder a = valid_stream("board-a");
  StreamBuilder other = valid_stream("board-b");
  for (auto& line : other.lines) {
    for (const char* from : {"6010", "8210", "10110"}) {
      const size_t at = line.find(from);
      if (at == std::string::npos) continue;
      // Re-frame with different numbers so the CRC stays valid.
      std::string covered = line.substr(0, line.size() - 9);
      covered.replace(covered.find(from), 1, "9");
      line = covered + fmt::format("#{:08x}", util::crc32(covered));
    }
  }
  StreamBuilder mixed;
  for (size_t i = 0; i < a.lines.size(); ++i) {
    mixed.lines.push_back(a.lines[i]);
    mixed.lines.push_back(other.lines[i]);
  }
  const DecodedStream s = decode_stream(mixed.str());
  EXPECT_TRUE(has_error(s, "line 2: record 0 repeated or interleaved: expected seq 1, got 0"))
      << all_errors(s);
  EXPECT_EQ(s.hello.board, "board-a");
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].cycle_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  EXPECT_FALSE(s.errors.empty());
}

TEST(ProtocolStreamDecoder, InterleavedStreamAheadIsReportedAsGap) {
  StreamBuilder a = valid_stream();
  StreamBuilder b = valid_stream();
  // A record of another stream with a higher sequence number arrives between A's records.
  std::vector<std::string> lines(a.lines.begin(), a.lines.begin() + 2);
  lines.push_back(b.lines[6]);
  lines.insert(lines.end(), a.lines.begin() + 2, a.lines.end());
  StreamBuilder mixed;
  mixed.lines = lines;
  const DecodedStream s = decode_stream(mixed.str());
  EXPECT_TRUE(has_error(s, "line 3: records 2..5 missing or interleaved: expected seq 2, got 6"))
      << all_errors(s);
  EXPECT_FALSE(s.completed);
}

TEST(ProtocolStreamDecoder, RepeatedRecordIsDropped) {
  StreamBuilder b = valid_stream();
  b.lines.insert(b.lines.begin() + 6, b.lines[5]);  // SAMPLE run 0 twice
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 7: record 5 repeated or interleaved: expected seq 6, got 5"))
      << all_errors(s);
  EXPECT_EQ(s.errors.size(), 1u) << all_errors(s);
  EXPECT_EQ(s.operations[0].cycle_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  // The END count still matches: the firmware sent each record once and all arrived.
  EXPECT_TRUE(s.completed);
}

TEST(ProtocolStreamDecoder, DroppedRecordIsReported) {
  StreamBuilder b = valid_stream();
  b.lines.erase(b.lines.begin() + 7);  // record 7 (SAMPLE run 2) lost
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 8: record 7 missing or interleaved: expected seq 7, got 8"))
      << all_errors(s);
  EXPECT_TRUE(has_error(s, "END reports 9 records before it, but 8 arrived intact"));
  EXPECT_FALSE(s.completed);
}

TEST(ProtocolStreamDecoder, RecordAfterEndIsError) {
  StreamBuilder b = valid_stream();
  b.add("SAMPLE", {"sha256", "0", "0", "99999"});
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 11: record 10 (SAMPLE) after END; ignored")) << all_errors(s);
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);
  EXPECT_TRUE(s.completed);  // END itself was fine; the error list marks the stream bad
}

TEST(ProtocolStreamDecoder, EndCountsMustAgree) {
  StreamBuilder b = preamble();
  b.add("END", {"0", "4"});  // claims 4 records before it, but it is seq 5
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "END reports 4 records before it, but 5 arrived intact (END has seq 5)"))
      << all_errors(s);
  EXPECT_FALSE(s.completed);

  StreamBuilder c = preamble();
  c.end(1);  // claims a failed operation; none failed
  const DecodedStream s2 = decode_stream(c.str());
  EXPECT_TRUE(has_error(s2, "END reports 1 failed operations, but the records received show 0"));
  EXPECT_FALSE(s2.completed);
}

TEST(ProtocolStreamDecoder, GarbageAndNulBytesInFreeTextAreEscaped) {
  StreamBuilder b = valid_stream();
  b.lines.insert(b.lines.begin() + 1, std::string("boot\0\xff\x1b[31m\\ok", 14));
  b.lines.insert(b.lines.begin() + 3, std::string("\0\0\0", 3));
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.log_lines,
            (std::vector<std::string>{"boot\\x00\\xff\\x1b[31m\\\\ok", "\\x00\\x00\\x00"}));
}

TEST(ProtocolStreamDecoder, NulByteInsideRecordIsCrcError) {
  StreamBuilder b = valid_stream();
  b.lines[5][20] = '\0';
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 6: record CRC mismatch")) << all_errors(s);
}

TEST(ProtocolStreamDecoder, RandomBytesNeverCrashOrYieldNumbers) {
  std::string noise;
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>(x >> 24);
    if (i % 997 == 0) noise += "@F ";
  }
  const DecodedStream s = decode_stream(noise);
  EXPECT_FALSE(s.completed);
  EXPECT_TRUE(s.operations.empty());
  EXPECT_FALSE(s.errors.empty());
  for (const auto& line : s.log_lines)
    for (char c : line) EXPECT_TRUE(c >= 0x20 && c <= 0x7e);
}

TEST(ProtocolStreamDecoder, VeryLongLines) {
  StreamBuilder b = valid_stream();
  b.lines.insert(b.lines.begin() + 1, std::string(100000, 'x'));
  b.lines.insert(b.lines.begin() + 2, "@F 1 " + std::string(100000, '1'));
  const DecodedStream s = decode_stream(b.str());
  ASSERT_EQ(s.log_lines.size(), 1u);
  EXPECT_EQ(s.log_lines[0], std::string(4096, 'x') + "... (95904 more bytes)");
  EXPECT_TRUE(has_error(s, "line 3: record longer than 512 bytes")) << all_errors(s);
  EXPECT_TRUE(s.completed);  // the long record carried no sequence number that was lost
}

TEST(ProtocolStreamDecoder, CrlfLineEndings) {
  std::string text;
  for (const auto& line : valid_stream().lines) text += line + "\r\n";
  text += "log line\r\n";
  const DecodedStream s = decode_stream(text);
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.log_lines, std::vector<std::string>{"log line"});
  EXPECT_EQ(s.operations[0].cycle_samples.size(), 3u);
}

TEST(ProtocolStreamDecoder, SampleForFailedKatIsRejected) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("CAL", {"0", "0"})
      .add("KAT", {"aes", "v1", "PASS"})
      .add("KAT", {"aes", "v2", "FAIL"})
      .add("KATSUM", {"aes", "1", "2"})
      .add("SAMPLE", {"aes", "0", "0", "100"})  // the firmware must not send this
      .add("MEM", {"aes", "1", "2", "3", "0"})
      .add("SKIP", {"aes", "kat-failed"})
      .end(1);
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 6: SAMPLE for aes rejected: the operation has no passing KATSUM"))
      << all_errors(s);
  EXPECT_TRUE(has_error(s, "line 7: MEM for aes rejected")) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations[0];
  EXPECT_EQ(op.kat, model::KatStatus::kFailed);
  EXPECT_TRUE(op.cycle_samples.empty());
  EXPECT_FALSE(op.cycles);
  EXPECT_FALSE(op.peak_stack_bytes);
  EXPECT_EQ(op.error, "known-answer test failed: 1 of 2 vectors passed");
  EXPECT_FALSE(op.has_timing());
  EXPECT_TRUE(s.completed);
}

TEST(ProtocolStreamDecoder, SampleWithoutKatsumIsRejected) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("CAL", {"0", "0"})
      .add("SAMPLE", {"aes", "0", "0", "100"})
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "SAMPLE for aes rejected: the operation has no passing KATSUM"));
  EXPECT_TRUE(s.operations.empty());
}

TEST(ProtocolStreamDecoder, KatsumDisagreeingWithKatRecordsFails) {
  StreamBuilder b = preamble();
  b.lines.erase(b.lines.begin() + 3);  // one PASS vector lost; KATSUM still says 2 of 2
  b.add("SAMPLE", {"sha256", "0", "0", "100"});
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "KATSUM for sha256 reports 2 of 2 vectors passed, but 1 KAT records"))
      << all_errors(s);
  EXPECT_EQ(s.operations[0].kat, model::KatStatus::kFailed);
  EXPECT_TRUE(s.operations[0].cycle_samples.empty());
}

TEST(ProtocolStreamDecoder, SkipRunFailedDiscardsEarlierSamples) {
  StreamBuilder b = preamble();
  b.add("SAMPLE", {"sha256", "0", "0", "1000"}).add("SKIP", {"sha256", "run-failed"}).end(1);
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  const auto& op = s.operations[0];
  EXPECT_TRUE(op.cycle_samples.empty());
  EXPECT_FALSE(op.cycles);
  EXPECT_EQ(op.error, "harness skipped timing: run-failed");
}

TEST(ProtocolStreamDecoder, SkipSetupFailedCreatesFailedOperation) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("CAL", {"0", "0"})
      .add("SKIP", {"rsa_2048_sign", "setup-failed"})
      .end(1);
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_EQ(s.operations[0].kat, model::KatStatus::kNotRun);
  EXPECT_EQ(s.operations[0].error, "harness skipped timing: setup-failed");
}

TEST(ProtocolStreamDecoder, MalformedRecordsAreErrorsNotNumbers) {
  StreamBuilder b = preamble();
  b.add("BOGUS", {"1"})
      .add("SAMPLE", {"sha256", "0", "100"})              // 3 fields
      .add("SAMPLE", {"sha256", "0", "1x0", "200"})       // non-numeric
      .add("SAMPLE", {"sha256", "0", "4294967296", "5"})  // does not fit 32 bits
      .add("SAMPLE", {"SHA256", "0", "0", "5"})           // bad operation name
      .add("KAT", {"sha256", "v", "MAYBE"})
      .add("SAMPLE", {"sha256", "3", "0", "500"})  // run >= runs
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 6: unknown record type 'BOGUS'")) << all_errors(s);
  EXPECT_TRUE(
      has_error(s, "line 7: SAMPLE record has 3 fields, expected 4 (<op> <run> <t0> <t1>)"));
  EXPECT_TRUE(has_error(s, "line 8: SAMPLE field t0 '1x0' is not an unsigned 32-bit decimal"));
  EXPECT_TRUE(has_error(s, "line 9: SAMPLE field t0 '4294967296' is not an unsigned 32-bit"));
  EXPECT_TRUE(has_error(s, "line 10: SAMPLE record names operation 'SHA256'"));
  EXPECT_TRUE(has_error(s, "line 11: KAT result 'MAYBE' is neither PASS nor FAIL"));
  EXPECT_TRUE(has_error(s, "line 12: SAMPLE for sha256 run 3 but HELLO announced 3 runs"));
  EXPECT_TRUE(s.operations[0].cycle_samples.empty());
  // Those records arrived intact (the firmware sent them), so END's count agrees.
  EXPECT_TRUE(s.completed);
}

TEST(ProtocolStreamDecoder, DuplicateSampleRunIsRejected) {
  StreamBuilder b = preamble();
  b.add("SAMPLE", {"sha256", "0", "0", "1010"}).add("SAMPLE", {"sha256", "0", "0", "2010"});
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "second SAMPLE for sha256 run 0")) << all_errors(s);
  EXPECT_EQ(s.operations[0].cycle_samples, std::vector<uint64_t>{1000});
}

TEST(ProtocolStreamDecoder, SampleBeforeCalIsRejected) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("KAT", {"op", "v", "PASS"})
      .add("KATSUM", {"op", "1", "1"})
      .add("SAMPLE", {"op", "0", "0", "5"});
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "SAMPLE for op before CAL")) << all_errors(s);
  EXPECT_TRUE(s.operations[0].cycle_samples.empty());
}

TEST(ProtocolStreamDecoder, StreamMustStartWithHello) {
  StreamBuilder b = valid_stream();
  b.lines.erase(b.lines.begin());
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 1: record 0 missing or interleaved: expected seq 0, got 1"));
  EXPECT_TRUE(has_error(s, "line 1: stream does not start with HELLO (first record is CAL)"));
  EXPECT_TRUE(has_error(s, "no valid HELLO record"));
  EXPECT_EQ(s.hello.protocol, 0u);
  EXPECT_FALSE(s.completed);
}

// Isolation (docs/PROTOCOL.md): the method is kept for the provenance; the run order is the
// order of the operations' first samples.
TEST(ProtocolStreamDecoder, IsolationMethodAndRunOrderAreKept) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("CAL", {"100", "110"})
      .add("ISOLATION", {"snapshot"})
      .add("KAT", {"a", "v", "PASS"})
      .add("KATSUM", {"a", "1", "1"})
      .add("KAT", {"b", "v", "PASS"})
      .add("KATSUM", {"b", "1", "1"})
      .add("SAMPLE", {"b", "0", "1000", "2010"})
      .add("MEM", {"b", "8", "16", "1", "32"})
      .add("SAMPLE", {"a", "0", "3000", "4010"})
      .add("MEM", {"a", "8", "0", "0", "32"})
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  EXPECT_EQ(s.isolation, "snapshot");
  EXPECT_EQ(s.run_order, (std::vector<std::string>{"b", "a"}));
}

TEST(ProtocolStreamDecoder, BadOrRepeatedIsolationRecordIsAnError) {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "1", "0"})
      .add("ISOLATION", {"fork"})
      .add("ISOLATION", {"none"})
      .add("ISOLATION", {"snapshot"})
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 2: ISOLATION method 'fork' is neither")) << all_errors(s);
  EXPECT_TRUE(has_error(s, "line 4: second ISOLATION record; ignored")) << all_errors(s);
  EXPECT_EQ(s.isolation, "none");
}

TEST(ProtocolStreamDecoder, MemWithoutHeapStartIsRejected) {
  StreamBuilder b = preamble();
  b.add("SAMPLE", {"sha256", "0", "5000", "6010"})
      .add("MEM", {"sha256", "412", "64", "2"})
      .end();
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "MEM record has 4 fields, expected 5")) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  EXPECT_FALSE(s.operations[0].heap_peak_bytes);
}

TEST(ProtocolStreamDecoder, UnsupportedProtocolVersionStopsDecoding) {
  StreamBuilder b = valid_stream();
  b.lines[0] = testing::record_line(0, "HELLO", {"1", "b", "c", "l", "v", "3", "1"});
  const DecodedStream s = decode_stream(b.str());
  EXPECT_TRUE(has_error(s, "line 1: unsupported protocol version 1 (this fathom reads version 3)"))
      << all_errors(s);
  EXPECT_TRUE(s.operations.empty());
  EXPECT_FALSE(s.cal);
  EXPECT_FALSE(s.completed);
}

// Probes as the harness makes them: several CAL attempts, then two reads per timed run, plus
// an unrelated read in between. Instructions advance 1 per cycle here, except where noted.
std::vector<CycleProbe> probes_for_valid_stream() {
  return {
      {90, 1000},   {95, 1004},     // a CAL attempt the harness did not choose
      {100, 2000},  {110, 2003},    // chosen CAL: 3 instructions of probe overhead
      {4000, 2500},                 // some other read
      {5000, 3000}, {6010, 3803},   // run 0: 800 instructions
      {7000, 4000}, {8210, 4903},   // run 1: 900
      {9000, 5000}, {10110, 5703},  // run 2: 700
  };
}

TEST(ProtocolStreamDecoder, InstructionCountsFromProbes) {
  const auto probes = probes_for_valid_stream();
  const DecodedStream s = decode_stream(valid_stream().str(), std::span(probes));
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  const auto& op = s.operations[0];
  EXPECT_EQ(op.instruction_samples, (std::vector<uint64_t>{800, 900, 700}));
  ASSERT_TRUE(op.instructions);
  EXPECT_DOUBLE_EQ(op.instructions->median, 800);
  EXPECT_EQ(op.cycle_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
}

TEST(ProtocolStreamDecoder, ProbeNotFoundLeavesNoInstructionCounts) {
  auto probes = probes_for_valid_stream();
  probes[8].cyccnt = 8211;  // the read that returned 8210 is missing
  const DecodedStream s = decode_stream(valid_stream().str(), std::span(probes));
  EXPECT_TRUE(has_error(s, "line 7: SAMPLE for sha256: no CYCCNT read returned t1=8210"))
      << all_errors(s);
  const auto& op = s.operations[0];
  EXPECT_TRUE(op.instruction_samples.empty());
  EXPECT_FALSE(op.instructions);
  EXPECT_EQ(op.cycle_samples.size(), 3u);  // cycles do not depend on the probes
}

TEST(ProtocolStreamDecoder, ProbesWithRepeatedValuesAreMatchedInOrder) {
  // CYCCNT was reset between runs, so each run reads the same values 0 and 50.
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "v", "2", "0"})
      .add("CAL", {"0", "2"})
      .add("KAT", {"op", "v", "PASS"})
      .add("KATSUM", {"op", "1", "1"})
      .add("SAMPLE", {"op", "0", "0", "50"})
      .add("SAMPLE", {"op", "1", "0", "50"})
      .end();
  const std::vector<CycleProbe> probes = {{0, 10},   {2, 11},  {0, 100},
                                          {50, 140}, {0, 200}, {50, 260}};
  const DecodedStream s = decode_stream(b.str(), std::span(probes));
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_EQ(s.operations[0].instruction_samples, (std::vector<uint64_t>{39, 59}));
}

TEST(ProtocolStreamDecoder, CalProbeMissingIsReportedOnce) {
  const std::vector<CycleProbe> probes = {{5000, 1}, {6010, 2}};
  const DecodedStream s = decode_stream(valid_stream().str(), std::span(probes));
  EXPECT_TRUE(has_error(s, "line 2: CAL: no CYCCNT read returned t0=100")) << all_errors(s);
  EXPECT_EQ(s.errors.size(), 1u) << all_errors(s);
  EXPECT_TRUE(s.operations[0].instruction_samples.empty());
}

TEST(ProtocolStreamDecoder, EscapeLogTextEscapesAndCaps) {
  EXPECT_EQ(escape_log_text("plain text"), "plain text");
  EXPECT_EQ(escape_log_text(std::string("a\tb\0\\", 5)), "a\\x09b\\x00\\\\");
  EXPECT_EQ(escape_log_text("abcdef", 4), "abcd... (2 more bytes)");
}

}  // namespace
}  // namespace fathom::protocol
