// sim::Semihosting against a fake guest memory: each operation newlib's rdimon uses, per the
// Arm "Semihosting for AArch32 and AArch64" specification (version 2), and the bounds checks
// on guest pointers.
#include "sim/semihosting.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace fathom::sim {
namespace {

constexpr uint32_t kBase = 0x20000000u;
constexpr uint32_t kMinusOne = 0xFFFFFFFFu;

// A guest RAM window [kBase, kBase + size); any access outside it fails.
struct FakeMemory {
  std::vector<uint8_t> bytes = std::vector<uint8_t>(0x30000, 0);

  bool inside(uint32_t address, size_t length) const {
    return address >= kBase && uint64_t{address} - kBase + length <= bytes.size();
  }
  void put(uint32_t address, const void* data, size_t length) {
    ASSERT_TRUE(inside(address, length));
    std::memcpy(&bytes[address - kBase], data, length);
  }
  void put_string(uint32_t address, const std::string& s) { put(address, s.c_str(), s.size() + 1); }
  void put_words(uint32_t address, std::vector<uint32_t> words) {
    put(address, words.data(), words.size() * 4);  // the test host is little-endian too
  }
  uint32_t word(uint32_t address) const {
    uint32_t w = 0;
    std::memcpy(&w, &bytes[address - kBase], 4);
    return w;
  }
};

SemihostingHeapInfo test_heap_info() {
  return {0x20001000u, 0x20038000u, 0x20040000u, 0x20038000u};
}

class SemihostingTest : public ::testing::Test {
 protected:
  SemihostingTest()
      : semihosting(
            [this](uint32_t a, void* out, size_t n) {
              if (!memory.inside(a, n)) return false;
              std::memcpy(out, &memory.bytes[a - kBase], n);
              return true;
            },
            [this](uint32_t a, const void* data, size_t n) {
              if (!memory.inside(a, n)) return false;
              std::memcpy(&memory.bytes[a - kBase], data, n);
              return true;
            },
            test_heap_info(), 20'000'000) {}

  // SYS_OPEN of `path` with `mode`, the path at 0x20000100 and the block at 0x20000000.
  SemihostingResult open(const std::string& path, uint32_t mode) {
    memory.put_string(0x20000100u, path);
    memory.put_words(0x20000000u, {0x20000100u, mode, static_cast<uint32_t>(path.size())});
    return semihosting.call(Semihosting::kSysOpen, 0x20000000u, 0);
  }
  // An operation whose block holds only `words`, at 0x20000010.
  SemihostingResult call_with(uint32_t operation, std::vector<uint32_t> words) {
    memory.put_words(0x20000010u, std::move(words));
    return semihosting.call(operation, 0x20000010u, 0);
  }
  uint32_t errno_value() { return semihosting.call(Semihosting::kSysErrno, 0, 0).r0; }

  FakeMemory memory;
  Semihosting semihosting;
};

TEST_F(SemihostingTest, Write0PrintsUpToTheNul) {
  memory.put_string(0x20000200u, "hello\n");
  auto r = semihosting.call(Semihosting::kSysWrite0, 0x20000200u, 0);
  EXPECT_TRUE(r.error.empty());
  EXPECT_FALSE(r.exit);
  EXPECT_EQ(semihosting.console(), "hello\n");
}

TEST_F(SemihostingTest, Write0CutsAnOverlongStringAtTheCap) {
  std::string long_text(Semihosting::kMaxStringBytes + 100, 'x');
  memory.put_string(0x20000200u, long_text);
  auto r = semihosting.call(Semihosting::kSysWrite0, 0x20000200u, 0);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(semihosting.console().size(), Semihosting::kMaxStringBytes);
}

TEST_F(SemihostingTest, Write0OfABadPointerIsAnError) {
  auto r = semihosting.call(Semihosting::kSysWrite0, 0x10u, 0);
  EXPECT_NE(r.error.find("SYS_WRITE0"), std::string::npos) << r.error;
  EXPECT_TRUE(semihosting.console().empty());
}

TEST_F(SemihostingTest, Write0OfAStringRunningOffMemoryIsAnError) {
  const uint32_t last = kBase + static_cast<uint32_t>(memory.bytes.size()) - 3;
  memory.put(last, "abc", 3);  // no NUL before the end of memory
  EXPECT_FALSE(semihosting.call(Semihosting::kSysWrite0, last, 0).error.empty());
}

TEST_F(SemihostingTest, WritecPrintsOneCharacter) {
  memory.put(0x20000200u, "Q", 1);
  EXPECT_TRUE(semihosting.call(Semihosting::kSysWritec, 0x20000200u, 0).error.empty());
  EXPECT_EQ(semihosting.console(), "Q");
  EXPECT_FALSE(semihosting.call(Semihosting::kSysWritec, 0x4u, 0).error.empty());
}

TEST_F(SemihostingTest, OpenTtOpensStdinStdoutAndStderr) {
  const auto in = open(":tt", 0).r0;   // "r"
  const auto out = open(":tt", 4).r0;  // "w"
  const auto err = open(":tt", 8).r0;  // "a"
  EXPECT_NE(in, kMinusOne);
  EXPECT_NE(out, kMinusOne);
  EXPECT_NE(err, kMinusOne);
  EXPECT_NE(in, out);
  EXPECT_NE(out, err);

  memory.put(0x20000300u, "out,", 4);
  memory.put(0x20000310u, "err", 3);
  auto r = call_with(Semihosting::kSysWrite, {out, 0x20000300u, 4});
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.r0, 0u);  // bytes not written
  EXPECT_EQ(call_with(Semihosting::kSysWrite, {err, 0x20000310u, 3}).r0, 0u);
  EXPECT_EQ(semihosting.console(), "out,err");

  // stdin is not writable: nothing written, errno EBADF.
  EXPECT_EQ(call_with(Semihosting::kSysWrite, {in, 0x20000300u, 4}).r0, 4u);
  EXPECT_EQ(errno_value(), 9u);
  EXPECT_EQ(semihosting.console(), "out,err");
}

TEST_F(SemihostingTest, OpenOfAnyOtherPathFails) {
  EXPECT_EQ(open("/etc/passwd", 0).r0, kMinusOne);
  EXPECT_EQ(errno_value(), 2u);              // ENOENT
  EXPECT_EQ(open(":tt", 12).r0, kMinusOne);  // no such mode
}

TEST_F(SemihostingTest, OpenWithABadPathPointerIsAnError) {
  memory.put_words(0x20000000u, {0x8u, 0, 3});
  EXPECT_FALSE(semihosting.call(Semihosting::kSysOpen, 0x20000000u, 0).error.empty());
  EXPECT_FALSE(semihosting.call(Semihosting::kSysOpen, 0x4u, 0).error.empty());
}

TEST_F(SemihostingTest, TooManyOpenFilesFail) {
  for (size_t i = 0; i < Semihosting::kMaxOpenFiles; ++i) EXPECT_NE(open(":tt", 4).r0, kMinusOne);
  EXPECT_EQ(open(":tt", 4).r0, kMinusOne);
  EXPECT_EQ(errno_value(), 24u);  // EMFILE
}

TEST_F(SemihostingTest, WriteWithABadBufferIsAnError) {
  const auto out = open(":tt", 4).r0;
  auto r = call_with(Semihosting::kSysWrite, {out, 0x100u, 4});
  EXPECT_NE(r.error.find("SYS_WRITE"), std::string::npos) << r.error;
  EXPECT_FALSE(semihosting.call(Semihosting::kSysWrite, 0xFFFFFFFCu, 0).error.empty());
}

TEST_F(SemihostingTest, WriteLongerThanTheCapIsServedInPart) {
  const auto out = open(":tt", 4).r0;
  const uint32_t length = Semihosting::kMaxStringBytes + 10;
  auto r = call_with(Semihosting::kSysWrite, {out, 0x20001000u, length});
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.r0, 10u);
  EXPECT_EQ(semihosting.console().size(), Semihosting::kMaxStringBytes);
}

TEST_F(SemihostingTest, WriteToAnUnopenedHandleWritesNothing) {
  memory.put(0x20000300u, "abc", 3);
  EXPECT_EQ(call_with(Semihosting::kSysWrite, {7, 0x20000300u, 3}).r0, 3u);
  EXPECT_TRUE(semihosting.console().empty());
}

TEST_F(SemihostingTest, ReadFromStdinIsEndOfFile) {
  const auto in = open(":tt", 0).r0;
  auto r = call_with(Semihosting::kSysRead, {in, 0x20000300u, 16});
  EXPECT_EQ(r.r0, 16u);  // all bytes unread
  EXPECT_EQ(call_with(Semihosting::kSysRead, {99, 0x20000300u, 16}).r0, kMinusOne);
}

TEST_F(SemihostingTest, FeatureFileAdvertisesExitExtendedAndStdoutStderr) {
  const auto f = open(":semihosting-features", 0).r0;
  ASSERT_NE(f, kMinusOne);
  EXPECT_EQ(call_with(Semihosting::kSysFlen, {f}).r0, 5u);
  EXPECT_EQ(call_with(Semihosting::kSysIstty, {f}).r0, 0u);
  EXPECT_EQ(call_with(Semihosting::kSysRead, {f, 0x20000300u, 8}).r0, 3u);  // 5 of 8 read
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(&memory.bytes[0x300]), 4), "SHFB");
  EXPECT_EQ(memory.bytes[0x304], 0x03);
  EXPECT_EQ(call_with(Semihosting::kSysRead, {f, 0x20000300u, 8}).r0, 8u);  // at the end
  EXPECT_EQ(call_with(Semihosting::kSysSeek, {f, 4}).r0, 0u);
  EXPECT_EQ(call_with(Semihosting::kSysRead, {f, 0x20000400u, 1}).r0, 0u);
  EXPECT_EQ(memory.bytes[0x400], 0x03);
  EXPECT_EQ(call_with(Semihosting::kSysSeek, {f, 6}).r0, kMinusOne);
  EXPECT_EQ(call_with(Semihosting::kSysClose, {f}).r0, 0u);
  EXPECT_EQ(call_with(Semihosting::kSysClose, {f}).r0, kMinusOne);  // already closed
  EXPECT_EQ(errno_value(), 9u);
}

TEST_F(SemihostingTest, ConsoleIsATtyThatCannotSeek) {
  const auto out = open(":tt", 4).r0;
  EXPECT_EQ(call_with(Semihosting::kSysIstty, {out}).r0, 1u);
  EXPECT_EQ(call_with(Semihosting::kSysFlen, {out}).r0, 0u);
  EXPECT_EQ(call_with(Semihosting::kSysSeek, {out, 0}).r0, kMinusOne);
  EXPECT_EQ(call_with(Semihosting::kSysIstty, {42}).r0, kMinusOne);
  EXPECT_EQ(call_with(Semihosting::kSysFlen, {42}).r0, kMinusOne);
}

TEST_F(SemihostingTest, ClockCountsCentisecondsOfSimulatedCycles) {
  // 20 MHz: 1.5 s = 30,000,000 cycles = 150 cs; 199,999 cycles is still under 1 cs.
  EXPECT_EQ(semihosting.call(Semihosting::kSysClock, 0, 30'000'000).r0, 150u);
  EXPECT_EQ(semihosting.call(Semihosting::kSysClock, 0, 199'999).r0, 0u);
  EXPECT_EQ(semihosting.call(Semihosting::kSysClock, 0, 200'000).r0, 1u);
  EXPECT_EQ(semihosting.call(Semihosting::kSysTime, 0, 30'000'000).r0, 0u);
}

TEST_F(SemihostingTest, ClockWithoutAClockRateFails) {
  Semihosting no_clock([](uint32_t, void*, size_t) { return false; },
                       [](uint32_t, const void*, size_t) { return false; }, {}, 0);
  EXPECT_EQ(no_clock.call(Semihosting::kSysClock, 0, 1000).r0, kMinusOne);
}

TEST_F(SemihostingTest, CommandLineIsEmpty) {
  memory.bytes[0x500] = 'z';
  auto r = call_with(Semihosting::kSysGetCmdline, {0x20000500u, 255});
  EXPECT_EQ(r.r0, 0u);
  EXPECT_EQ(memory.bytes[0x500], 0);
  EXPECT_EQ(memory.word(0x20000014u), 0u);  // length
  EXPECT_FALSE(call_with(Semihosting::kSysGetCmdline, {0x8u, 255}).error.empty());
}

TEST_F(SemihostingTest, HeapinfoFillsTheBlockThroughThePointer) {
  memory.put_words(0x20000020u, {0x20000600u});  // r1 -> pointer -> block
  auto r = semihosting.call(Semihosting::kSysHeapinfo, 0x20000020u, 0);
  EXPECT_TRUE(r.error.empty());
  const auto expected = test_heap_info();
  EXPECT_EQ(memory.word(0x20000600u), expected.heap_base_address);
  EXPECT_EQ(memory.word(0x20000604u), expected.heap_limit_address);
  EXPECT_EQ(memory.word(0x20000608u), expected.stack_base_address);
  EXPECT_EQ(memory.word(0x2000060Cu), expected.stack_limit_address);
  EXPECT_EQ(memory.word(0x20000020u), 0x20000600u);  // the pointer itself is untouched
}

TEST_F(SemihostingTest, HeapinfoWithABadBlockPointerIsAnError) {
  memory.put_words(0x20000020u, {0x00000100u});  // not writable memory
  EXPECT_FALSE(semihosting.call(Semihosting::kSysHeapinfo, 0x20000020u, 0).error.empty());
  EXPECT_FALSE(semihosting.call(Semihosting::kSysHeapinfo, 0x0u, 0).error.empty());
}

TEST_F(SemihostingTest, ExitWithApplicationExitReasonIsCodeZero) {
  auto r = semihosting.call(Semihosting::kSysExit, Semihosting::kAdpStoppedApplicationExit, 0);
  EXPECT_TRUE(r.exit);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.error.empty());
}

TEST_F(SemihostingTest, ExitWithAnotherReasonIsCodeOne) {
  auto r = semihosting.call(Semihosting::kSysExit, 0x20023u, 0);  // RunTimeErrorUnknown
  EXPECT_TRUE(r.exit);
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(SemihostingTest, ExitWithABlockReportsTheSubcode) {
  memory.put_words(0x20000030u, {Semihosting::kAdpStoppedApplicationExit, 7});
  auto r = semihosting.call(Semihosting::kSysExit, 0x20000030u, 0);
  EXPECT_TRUE(r.exit);
  EXPECT_EQ(r.exit_code, 7);
  memory.put_words(0x20000030u, {0x20023u, 7});
  EXPECT_EQ(semihosting.call(Semihosting::kSysExit, 0x20000030u, 0).exit_code, 1);
}

TEST_F(SemihostingTest, ExitExtendedReadsTheBlock) {
  memory.put_words(0x20000030u, {Semihosting::kAdpStoppedApplicationExit, 3});
  auto r = semihosting.call(Semihosting::kSysExitExtended, 0x20000030u, 0);
  EXPECT_TRUE(r.exit);
  EXPECT_EQ(r.exit_code, 3);
  auto bad = semihosting.call(Semihosting::kSysExitExtended, 0x8u, 0);
  EXPECT_FALSE(bad.exit);
  EXPECT_NE(bad.error.find("SYS_EXIT_EXTENDED"), std::string::npos) << bad.error;
}

TEST_F(SemihostingTest, UnknownOperationIsAnError) {
  auto r = semihosting.call(0x30u, 0, 0);
  EXPECT_FALSE(r.exit);
  EXPECT_NE(r.error.find("unsupported semihosting operation 0x30"), std::string::npos) << r.error;
  EXPECT_FALSE(semihosting.call(0x07u, 0, 0).error.empty());  // SYS_READC: not served
}

TEST_F(SemihostingTest, ResetForgetsConsoleFilesAndErrno) {
  const auto out = open(":tt", 4).r0;
  memory.put_string(0x20000200u, "x");
  semihosting.call(Semihosting::kSysWrite0, 0x20000200u, 0);
  open("nope", 0);
  semihosting.reset();
  EXPECT_TRUE(semihosting.console().empty());
  EXPECT_EQ(errno_value(), 0u);
  EXPECT_EQ(call_with(Semihosting::kSysIstty, {out}).r0, kMinusOne);
}

TEST(SemihostingHeapInfo, StackAtTheTopOfRamAndHeapFromEnd) {
  auto info = semihosting_heap_info(0x20000000u, 0x40000u, 0x8000u, 0x20000BE1u);
  EXPECT_EQ(info.stack_base_address, 0x20040000u);
  EXPECT_EQ(info.stack_limit_address, 0x20038000u);
  EXPECT_EQ(info.heap_base_address, 0x20000BE8u);  // rounded up to 8
  EXPECT_EQ(info.heap_limit_address, 0x20038000u);
}

TEST(SemihostingHeapInfo, NoOrForeignEndSymbolMeansTheBottomOfRam) {
  EXPECT_EQ(semihosting_heap_info(0x20000000u, 0x40000u, 0x8000u, std::nullopt).heap_base_address,
            0x20000000u);
  EXPECT_EQ(semihosting_heap_info(0x20000000u, 0x40000u, 0x8000u, 0x1000u).heap_base_address,
            0x20000000u);
}

TEST(SemihostingHeapInfo, StackLargerThanRamTakesAllOfIt) {
  auto info = semihosting_heap_info(0x20000000u, 0x1000u, 0x8000u, 0x20000800u);
  EXPECT_EQ(info.stack_limit_address, 0x20000000u);
  EXPECT_EQ(info.heap_base_address, 0x20000000u);
  EXPECT_EQ(info.heap_limit_address, 0x20000000u);
}

}  // namespace
}  // namespace fathom::sim
