// decode_stream with StreamPiece: a stream put together from slots that each numbered their
// records from the same start and read CYCCNT from the same value (target/sim/slot_run.h).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "protocol/stream_decoder.h"
#include "record_builder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

// The prefix (HELLO, CAL, KATs of two operations), two slots that both start at seq 7 and
// CYCCNT 5000, and the final piece with END numbered as the slots in order leave it.
struct Pieces {
  std::string console;
  std::vector<StreamPiece> pieces;
  std::vector<CycleProbe> probes;
};

Pieces slotted_stream() {
  Pieces p;
  StreamBuilder prefix;
  prefix.add("HELLO", {"3", "sim-m33", "cfg", "mbedtls", "3.6.6", "2", "0"})
      .add("CAL", {"100", "110"})
      .add("KAT", {"a", "v", "PASS"})
      .add("KATSUM", {"a", "1", "1"})
      .add("KAT", {"b", "v", "PASS"})
      .add("KATSUM", {"b", "1", "1"})
      .add("ISOLATION", {"snapshot"});
  p.pieces.push_back({0, 0, 0});
  p.console = prefix.str();
  p.probes = {{100, 10}, {110, 12}};
  // Both slots: seq from 7, CYCCNT from 5000 (the same start state).
  auto slot = [&](const std::string& op, uint32_t cycles, uint64_t offset) {
    StreamBuilder s;
    s.next_seq = 7;
    s.add("SAMPLE", {op, "0", "5000", std::to_string(5000 + cycles)})
        .add("SAMPLE", {op, "1", "5000", std::to_string(5000 + cycles)})
        .add("MEM", {op, "100", "0", "0", "0"});
    p.pieces.push_back({p.console.size(), offset, p.probes.size()});
    p.console += s.str();
    // Instructions count along the pieces; each run executes cycles/2 + 2 instructions, CAL's reads 2 apart.
    const uint64_t base = p.probes.back().instructions + 100;
    p.probes.push_back({5000, base});
    p.probes.push_back({5000 + cycles, base + 2 + cycles / 2});
    p.probes.push_back({5000, base + 1000});
    p.probes.push_back({5000 + cycles, base + 1002 + cycles / 2});
  };
  slot("a", 1010, 0);
  slot("b", 2010, 3);
  StreamBuilder end;
  end.next_seq = 13;
  end.end();
  p.pieces.push_back({p.console.size(), 0, p.probes.size()});
  p.console += end.str();
  return p;
}

TEST(ProtocolStreamPieces, SlotsNumberedFromOneStartDecodeAsOneStream) {
  const Pieces p = slotted_stream();
  const DecodedStream s = decode_stream(p.console, p.probes, p.pieces);
  EXPECT_TRUE(s.errors.empty()) << (s.errors.empty() ? "" : s.errors.front());
  EXPECT_TRUE(s.completed);
  ASSERT_EQ(s.operations.size(), 2u);
  EXPECT_EQ(s.operations[0].cycle_samples, (std::vector<uint64_t>{1000, 1000}));
  EXPECT_EQ(s.operations[1].cycle_samples, (std::vector<uint64_t>{2000, 2000}));
  // Each read pair is found in its own piece although both slots read the same values.
  EXPECT_EQ(s.operations[0].instruction_samples, (std::vector<uint64_t>{505, 505}));
  EXPECT_EQ(s.operations[1].instruction_samples, (std::vector<uint64_t>{1005, 1005}));
  EXPECT_EQ(s.run_order, (std::vector<std::string>{"a", "b"}));
}

TEST(ProtocolStreamPieces, WithoutPiecesTheRepeatedNumbersAreErrors) {
  const Pieces p = slotted_stream();
  const DecodedStream s = decode_stream(p.console, p.probes);
  EXPECT_FALSE(s.completed);
  EXPECT_FALSE(s.errors.empty());
}

TEST(ProtocolStreamPieces, AWrongOffsetIsAGapNotANumber) {
  Pieces p = slotted_stream();
  p.pieces[2].seq_offset = 4;  // slot b placed one record too far
  const DecodedStream s = decode_stream(p.console, p.probes, p.pieces);
  EXPECT_FALSE(s.completed);
  bool gap = false;
  for (const auto& e : s.errors) gap |= e.find("missing or interleaved") != std::string::npos;
  EXPECT_TRUE(gap);
}

TEST(ProtocolStreamPieces, AReadIsNeverTakenFromAnotherPiece) {
  Pieces p = slotted_stream();
  // Slot b's reads are lost: its samples must not take slot a's, which read the same values.
  p.probes.resize(p.probes.size() - 4);
  p.pieces[3].first_probe = p.probes.size();
  const DecodedStream s = decode_stream(p.console, p.probes, p.pieces);
  ASSERT_EQ(s.operations.size(), 2u);
  EXPECT_EQ(s.operations[0].instruction_samples, (std::vector<uint64_t>{505, 505}));
  EXPECT_TRUE(s.operations[1].instruction_samples.empty());
}

}  // namespace
}  // namespace fathom::protocol
