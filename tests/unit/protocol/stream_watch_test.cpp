#include "protocol/stream_watch.h"

#include <gtest/gtest.h>

#include "record_builder.h"
#include "protocol/stream_decoder.h"

namespace fathom::protocol {
namespace {

using testing::StreamBuilder;

StreamBuilder small_stream() {
  StreamBuilder b;
  b.add("HELLO", {"3", "b", "c", "l", "1", "2", "0"})
      .add("CAL", {"10", "14"})
      .add("ISOLATION", {"none"})
      .add("KAT", {"op", "v0", "PASS"})
      .add("KATSUM", {"op", "1", "1"})
      .add("SAMPLE", {"op", "0", "100", "204"})
      .add("SAMPLE", {"op", "1", "300", "404"})
      .end();
  return b;
}

TEST(StreamWatch, EndsAtTheEndRecordWhateverArrivesAfter) {
  const std::string stream = small_stream().str();
  StreamWatch watch;
  // Byte by byte, as a slow UART delivers it.
  for (size_t i = 0; i + 1 < stream.size(); ++i) {
    watch.feed(stream.substr(i, 1));
    EXPECT_FALSE(watch.over()) << "at byte " << i;
  }
  watch.feed(stream.substr(stream.size() - 1));
  EXPECT_TRUE(watch.ended());
  watch.feed("trailing noise\n");
  EXPECT_EQ(watch.stream(), stream);
  DecodedStream d = decode_stream(watch.stream());
  EXPECT_TRUE(d.completed);
  ASSERT_EQ(d.operations.size(), 1u);
  EXPECT_EQ(d.operations[0].cycle_samples, (std::vector<uint64_t>{100, 100}));
}

TEST(StreamWatch, ACorruptedEndDoesNotEndTheStream) {
  StreamBuilder b = small_stream();
  b.lines.back()[5] ^= 0x01;
  StreamWatch watch;
  watch.feed(b.str());
  EXPECT_FALSE(watch.over());
  EXPECT_EQ(watch.stream(), b.str());
}

TEST(StreamWatch, ASecondHelloIsAResetAndCutsTheStreamBeforeIt) {
  StreamBuilder first = small_stream();
  first.lines.resize(6);  // HELLO .. the first SAMPLE, then the board restarts
  const std::string before = first.str();
  const std::string stream = before + small_stream().str();
  StreamWatch watch;
  watch.feed(stream);
  EXPECT_FALSE(watch.ended());
  ASSERT_TRUE(watch.reset_line());
  EXPECT_EQ(*watch.reset_line(), 7u);
  EXPECT_EQ(watch.stream(), before);
  DecodedStream d = decode_stream(watch.stream());
  EXPECT_FALSE(d.completed);
  ASSERT_EQ(d.operations.size(), 1u);
  EXPECT_EQ(d.operations[0].cycle_samples, (std::vector<uint64_t>{100}));
}

TEST(StreamWatch, FreeTextAndCarriageReturnsAreLinesLikeAnyOther) {
  StreamBuilder b = small_stream();
  std::string crlf;
  for (const auto& l : b.lines) crlf += l + "\r\n";
  StreamWatch watch;
  watch.feed("boot banner\r\n");
  watch.feed(crlf);
  EXPECT_TRUE(watch.ended());
  EXPECT_EQ(watch.lines(), b.lines.size() + 1);
  EXPECT_TRUE(watch.any_record());
}

}  // namespace
}  // namespace fathom::protocol
