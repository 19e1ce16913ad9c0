// decode_stream_without_cycles: a target whose counter reads carry no cycles (QEMU), where the
// instruction counts come from probes placed by console position.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "protocol/stream_decoder.h"
#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// Console byte where line `index` of `b` starts.
uint64_t offset_of(const StreamBuilder& b, size_t index) {
  uint64_t offset = 0;
  for (size_t i = 0; i < index; ++i) offset += b.lines[i].size() + 1;
  return offset;
}

// Every counter value is 0, as on QEMU.
StreamBuilder zero_counter_stream() {
  StreamBuilder b;
  b.add("HELLO", {"3", "qemu-mps2-an386", "baseline", "mbedtls", "3.6.6", "3", "1"})
      .add("CAL", {"0", "0"})
      .add("ISOLATION", {"none"})
      .add("KAT", {"sha256", "abc", "PASS"})
      .add("KATSUM", {"sha256", "1", "1"})
      .add("SAMPLE", {"sha256", "0", "0", "0"})
      .add("SAMPLE", {"sha256", "1", "0", "0"})
      .add("SAMPLE", {"sha256", "2", "0", "0"})
      .add("MEM", {"sha256", "412", "64", "2", "96"})
      .end();
  return b;
}

// The harness's reads: 8 CAL pairs of 3 instructions before the CAL record, then one pair per
// timed run before its SAMPLE record, `run_instructions` apart (plus the 3 of the probe).
std::vector<PositionedProbe> probes_for(const StreamBuilder& b,
                                        const std::vector<uint64_t>& run_instructions) {
  std::vector<PositionedProbe> probes;
  uint64_t at = 1000;
  for (int i = 0; i < 8; ++i) {
    probes.push_back({at, offset_of(b, 1)});
    probes.push_back({at + 3, offset_of(b, 1)});
    at += 10;
  }
  size_t run = 0;
  for (size_t line = 0; line < b.lines.size(); ++line) {
    if (b.lines[line].find(" SAMPLE ") == std::string::npos) continue;
    at += 500;
    probes.push_back({at, offset_of(b, line)});
    probes.push_back({at + 3 + run_instructions[run++], offset_of(b, line)});
  }
  return probes;
}

std::string all_errors(const DecodedStream& s) {
  std::string out;
  for (const auto& e : s.errors) out += e + "\n";
  return out;
}

TEST(ProtocolStreamDecoderWithoutCycles, InstructionsFromPositionedProbesAndNoCycles) {
  const StreamBuilder b = zero_counter_stream();
  const auto probes = probes_for(b, {1000, 1200, 1100});
  const DecodedStream s = decode_stream_without_cycles(b.str(), probes);
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_TRUE(s.completed);
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations[0];
  EXPECT_TRUE(op.cycle_samples.empty());
  EXPECT_FALSE(op.cycles.has_value());
  EXPECT_EQ(op.instruction_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  ASSERT_TRUE(op.instructions.has_value());
  EXPECT_EQ(op.instructions->median, 1100.0);
  EXPECT_TRUE(op.has_instructions_only());
  EXPECT_FALSE(op.has_timing());
  EXPECT_TRUE(op.is_measured());
  EXPECT_EQ(s.run_order, std::vector<std::string>{"sha256"});
}

TEST(ProtocolStreamDecoderWithoutCycles, LogTextBetweenTheReadsDoesNotMoveThem) {
  StreamBuilder b = zero_counter_stream();
  // The operation prints a line during its second run (probes 18 and 19): its t0 read comes
  // before that text, its t1 read after it.
  const size_t second_sample = 6;
  ASSERT_NE(b.lines[second_sample].find(" SAMPLE sha256 1 "), std::string::npos);
  b.lines.insert(b.lines.begin() + second_sample, "debug: inside the run");
  auto probes = probes_for(b, {1000, 1200, 1100});
  probes[18].console_offset = offset_of(b, second_sample);
  ASSERT_EQ(probes[19].console_offset, offset_of(b, second_sample + 1));
  const DecodedStream s = decode_stream_without_cycles(b.str(), probes);
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  EXPECT_EQ(s.operations[0].instruction_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  EXPECT_EQ(s.log_lines, std::vector<std::string>{"debug: inside the run"});
}

TEST(ProtocolStreamDecoderWithoutCycles, MissingReadsLeaveTheOperationUnmeasured) {
  const StreamBuilder b = zero_counter_stream();
  auto probes = probes_for(b, {1000, 1200, 1100});
  probes.resize(probes.size() - 2);  // the last run's reads never arrived
  const DecodedStream s = decode_stream_without_cycles(b.str(), probes);
  const auto& op = s.operations[0];
  EXPECT_TRUE(op.instruction_samples.empty());
  EXPECT_FALSE(op.instructions.has_value());
  EXPECT_FALSE(op.is_measured());
  EXPECT_TRUE(std::any_of(s.errors.begin(), s.errors.end(), [](const std::string& e) {
    return e.find("no two unused counter reads") != std::string::npos;
  })) << all_errors(s);
  EXPECT_TRUE(std::any_of(s.errors.begin(), s.errors.end(), [](const std::string& e) {
    return e.find("0 of 3 timed samples") != std::string::npos;
  })) << all_errors(s);
}

TEST(ProtocolStreamDecoderWithoutCycles, NoCalReadsMeansNoInstructionCounts) {
  const StreamBuilder b = zero_counter_stream();
  const DecodedStream s = decode_stream_without_cycles(b.str(), {});
  EXPECT_TRUE(std::any_of(s.errors.begin(), s.errors.end(), [](const std::string& e) {
    return e.find("CAL: no two unused counter reads") != std::string::npos;
  })) << all_errors(s);
  EXPECT_FALSE(s.operations[0].instructions.has_value());
  EXPECT_FALSE(s.operations[0].cycles.has_value());
}

}  // namespace
}  // namespace fathom::protocol

namespace fathom::protocol {
namespace {

TEST(ProtocolStreamDecoderWithoutCycles, ProbesWithCounterValuesGiveCycles) {
  // The QEMU engine: the guest read 0, the plugin recorded what CYCCNT would have returned.
  const StreamBuilder b = zero_counter_stream();
  auto probes = probes_for(b, {1000, 1200, 1100});
  for (auto& p : probes) p.cyccnt = static_cast<uint32_t>(2 * p.instructions + 5);
  const DecodedStream s = decode_stream_without_cycles(b.str(), probes);
  EXPECT_TRUE(s.errors.empty()) << all_errors(s);
  ASSERT_EQ(s.operations.size(), 1u);
  const auto& op = s.operations[0];
  // Two cycles per instruction, the probe's own 3 instructions (6 cycles) taken off by CAL.
  EXPECT_EQ(op.cycle_samples, (std::vector<uint64_t>{2000, 2400, 2200}));
  EXPECT_EQ(op.instruction_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
  EXPECT_TRUE(op.has_timing());
  ASSERT_TRUE(s.cal.has_value());
  EXPECT_EQ(s.cal->second - s.cal->first, 6u);

  // A SAMPLE whose reads are missing is an error and gives no cycles (the guest's 0s are
  // never taken for them).
  auto fewer = probes;
  fewer.erase(fewer.end() - 2, fewer.end());  // the last run's two reads
  const DecodedStream missing = decode_stream_without_cycles(b.str(), fewer);
  EXPECT_EQ(missing.operations[0].cycle_samples, (std::vector<uint64_t>{2000, 2400}));
  EXPECT_FALSE(missing.errors.empty());

  // Values on only some probes: not a counter with cycles (nothing is made up).
  probes[0].cyccnt.reset();
  const DecodedStream partial = decode_stream_without_cycles(b.str(), probes);
  EXPECT_TRUE(partial.operations[0].cycle_samples.empty());
  EXPECT_EQ(partial.operations[0].instruction_samples, (std::vector<uint64_t>{1000, 1200, 1100}));
}

}  // namespace
}  // namespace fathom::protocol
