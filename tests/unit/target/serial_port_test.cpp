#include "target/serial_port.h"

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <string>

namespace fathom::target {
namespace {

// A pseudo-terminal pair: the test writes to `master` what a board would send.
struct Pty {
  Pty() {
    char name[256] = {};
    if (::openpty(&master, &slave, name, nullptr, nullptr) == 0) path = name;
  }
  ~Pty() {
    if (master >= 0) ::close(master);
    if (slave >= 0) ::close(slave);
  }
  int master = -1;
  int slave = -1;
  std::string path;
};

TEST(SerialSpeed, StandardRatesAreAccepted) {
  auto s = serial_speed(115200);
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, static_cast<unsigned>(B115200));
  EXPECT_TRUE(serial_speed(1000000));
}

TEST(SerialSpeed, ANonStandardRateIsAUsageErrorNamingTheNearestOnes) {
  auto s = serial_speed(250000);
  ASSERT_FALSE(s);
  EXPECT_TRUE(s.error().is_usage);
  EXPECT_NE(s.error().message.find("230400 or 460800"), std::string::npos) << s.error().message;
}

TEST(SerialPort, MissingDeviceIsAClearError) {
  auto port = SerialPort::open("/nonexistent/ttyFATHOM", 115200);
  ASSERT_FALSE(port);
  EXPECT_NE(port.error().message.find("cannot open serial port /nonexistent/ttyFATHOM"),
            std::string::npos)
      << port.error().message;
}

TEST(SerialPort, ARegularFileIsNotATerminal) {
  auto port = SerialPort::open("/dev/null", 115200);
  ASSERT_FALSE(port);
  EXPECT_NE(port.error().message.find("not a terminal"), std::string::npos)
      << port.error().message;
}

TEST(SerialPort, BadBaudFailsBeforeOpening) {
  auto port = SerialPort::open("/nonexistent/ttyFATHOM", 123);
  ASSERT_FALSE(port);
  EXPECT_NE(port.error().message.find("baud rate 123"), std::string::npos);
}

TEST(SerialPort, OpensAPtyRawAtTheBaudRate) {
  Pty pty;
  ASSERT_FALSE(pty.path.empty());
  auto port = SerialPort::open(pty.path, 921600);
  ASSERT_TRUE(port) << port.error().message;
  termios tio{};
  ASSERT_EQ(::tcgetattr(pty.slave, &tio), 0);
  EXPECT_EQ(::cfgetispeed(&tio), static_cast<speed_t>(B921600));
  EXPECT_EQ(tio.c_lflag & (ICANON | ECHO | ISIG), 0u);
  EXPECT_EQ(tio.c_iflag & (ICRNL | IXON), 0u);
  EXPECT_EQ(tio.c_oflag & OPOST, 0u);
}

TEST(SerialPort, ReadsBytesUnchangedAndDrainsOldInput) {
  Pty pty;
  auto port = SerialPort::open(pty.path, 115200);
  ASSERT_TRUE(port) << port.error().message;
  ASSERT_EQ(::write(pty.master, "stale\n", 6), 6);
  // The pty hands bytes to the slave's queue asynchronously: wait until they are there.
  pollfd p{pty.slave, POLLIN, 0};
  ASSERT_EQ(::poll(&p, 1, 30'000), 1);
  port->drain();
  // CR, CTRL-C and a high byte pass through untouched in raw mode.
  const std::string sent = std::string("@F 0\r\n\x03\xff", 8);
  ASSERT_EQ(::write(pty.master, sent.data(), sent.size()), static_cast<ssize_t>(sent.size()));
  std::string got;
  while (got.size() < sent.size()) {
    auto status = port->read_some(got, SerialPort::Clock::now() + std::chrono::seconds(30));
    ASSERT_TRUE(status) << status.error().message;
    ASSERT_EQ(*status, SerialPort::ReadStatus::kData);
  }
  EXPECT_EQ(got, sent);
}

TEST(SerialPort, SilenceIsATimeout) {
  Pty pty;
  auto port = SerialPort::open(pty.path, 115200);
  ASSERT_TRUE(port);
  std::string got;
  auto status = port->read_some(got, SerialPort::Clock::now());
  ASSERT_TRUE(status);
  EXPECT_EQ(*status, SerialPort::ReadStatus::kTimeout);
  EXPECT_TRUE(got.empty());
}

TEST(SerialPort, AClosedMasterIsReportedAsClosed) {
  Pty pty;
  auto port = SerialPort::open(pty.path, 115200);
  ASSERT_TRUE(port);
  ::close(pty.master);
  pty.master = -1;
  std::string got;
  auto status = port->read_some(got, SerialPort::Clock::now() + std::chrono::seconds(30));
  ASSERT_TRUE(status) << status.error().message;
  EXPECT_EQ(*status, SerialPort::ReadStatus::kClosed);
}

}  // namespace
}  // namespace fathom::target
