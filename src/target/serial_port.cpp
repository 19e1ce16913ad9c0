#include "target/serial_port.h"

#include <fcntl.h>
#include <poll.h>
#include <termios.h>
#include <unistd.h>

#include <fmt/core.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <type_traits>
#include <utility>

namespace fathom::target {
namespace {

static_assert(std::is_same_v<speed_t, unsigned>, "serial_speed returns speed_t as unsigned");

struct SpeedEntry {
  uint32_t baud;
  speed_t speed;
};

// Every rate Linux termios names (asm-generic/termbits.h); others need the BOTHER ioctl,
// which USB adapters do not all honour, so they are refused rather than approximated.
constexpr std::array<SpeedEntry, 30> kSpeeds = {{
    {50, B50},           {75, B75},           {110, B110},         {134, B134},
    {150, B150},         {200, B200},         {300, B300},         {600, B600},
    {1200, B1200},       {1800, B1800},       {2400, B2400},       {4800, B4800},
    {9600, B9600},       {19200, B19200},     {38400, B38400},     {57600, B57600},
    {115200, B115200},   {230400, B230400},   {460800, B460800},   {500000, B500000},
    {576000, B576000},   {921600, B921600},   {1000000, B1000000}, {1152000, B1152000},
    {1500000, B1500000}, {2000000, B2000000}, {2500000, B2500000}, {3000000, B3000000},
    {3500000, B3500000}, {4000000, B4000000},
}};

std::string errno_text(int err) { return std::strerror(err); }

}  // namespace

util::Result<unsigned> serial_speed(uint32_t baud) {
  const SpeedEntry* below = nullptr;
  const SpeedEntry* above = nullptr;
  for (const auto& e : kSpeeds) {
    if (e.baud == baud) return e.speed;
    if (e.baud < baud) below = &e;
    if (e.baud > baud && above == nullptr) above = &e;
  }
  std::string nearest;
  if (below) nearest += std::to_string(below->baud);
  if (below && above) nearest += " or ";
  if (above) nearest += std::to_string(above->baud);
  return util::fail_usage(fmt::format(
      "baud rate {} is not a standard serial rate (termios offers 50 ... 4000000; nearest: {}); "
      "set the board's UART and [serial] baud to a standard rate",
      baud, nearest));
}

util::Result<SerialPort> SerialPort::open(const std::string& path, uint32_t baud) {
  auto speed = serial_speed(baud);
  if (!speed) return tl::unexpected(speed.error());
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    const char* hint = err == ENOENT    ? " (is the board plugged in? set [serial] port or --port)"
                       : err == EACCES  ? " (no permission: add yourself to the 'dialout' group)"
                       : err == EBUSY   ? " (another program holds the port)"
                                        : "";
    return util::fail(fmt::format("cannot open serial port {}: {}{}", path, errno_text(err), hint));
  }
  SerialPort port(fd, path, baud);
  if (!::isatty(fd))
    return util::fail(fmt::format("{} is not a terminal device; --port must name a serial port "
                                  "(/dev/ttyACM0, /dev/ttyUSB0, a pty)",
                                  path));
  termios tio{};
  if (::tcgetattr(fd, &tio) != 0)
    return util::fail(fmt::format("cannot read the settings of {}: {}", path, errno_text(errno)));
  ::cfmakeraw(&tio);
  tio.c_cflag |= CREAD | CLOCAL;
  tio.c_cflag &= ~static_cast<tcflag_t>(CRTSCTS | CSTOPB | PARENB);
  tio.c_iflag &= ~static_cast<tcflag_t>(IXON | IXOFF | IXANY);
  tio.c_cc[VMIN] = 0;
  tio.c_cc[VTIME] = 0;
  if (::cfsetspeed(&tio, *speed) != 0)
    return util::fail(fmt::format("cannot set {} to {} baud: {}", path, baud, errno_text(errno)));
  if (::tcsetattr(fd, TCSANOW, &tio) != 0)
    return util::fail(fmt::format("cannot configure {} (raw, {} baud): {}", path, baud,
                                  errno_text(errno)));
  // tcsetattr succeeds if any one change took; read back what the driver accepted.
  termios now{};
  if (::tcgetattr(fd, &now) != 0 || ::cfgetispeed(&now) != *speed ||
      ::cfgetospeed(&now) != *speed || (now.c_lflag & (ICANON | ECHO)) != 0)
    return util::fail(fmt::format("{} did not accept raw mode at {} baud", path, baud));
  return port;
}

SerialPort::SerialPort(SerialPort&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)), baud_(other.baud_) {}

SerialPort& SerialPort::operator=(SerialPort&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    baud_ = other.baud_;
  }
  return *this;
}

SerialPort::~SerialPort() {
  if (fd_ >= 0) ::close(fd_);
}

void SerialPort::drain() {
  ::tcflush(fd_, TCIFLUSH);
  std::array<char, 4096> buffer{};
  while (::read(fd_, buffer.data(), buffer.size()) > 0) {
  }
}

util::Result<SerialPort::ReadStatus> SerialPort::read_some(std::string& out,
                                                           Clock::time_point deadline) {
  std::array<char, 4096> buffer{};
  for (;;) {
    const auto now = Clock::now();
    const auto left = deadline > now ? std::chrono::ceil<std::chrono::milliseconds>(deadline - now)
                                     : std::chrono::milliseconds(0);
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left.count(), 60'000)));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return util::fail(fmt::format("waiting for {}: {}", path_, errno_text(errno)));
    }
    if (ready == 0) {
      if (Clock::now() >= deadline) return ReadStatus::kTimeout;
      continue;
    }
    const ssize_t n = ::read(fd_, buffer.data(), buffer.size());
    if (n > 0) {
      out.append(buffer.data(), static_cast<size_t>(n));
      return ReadStatus::kData;
    }
    const int err = n < 0 ? errno : 0;
    if (n < 0 && (err == EAGAIN || err == EINTR)) continue;
    // A pty slave whose master closed reads EIO; a vanished USB device hangs up.
    if ((n < 0 && err == EIO) || (n == 0 && (p.revents & (POLLHUP | POLLERR)) != 0))
      return ReadStatus::kClosed;
    if (n == 0) continue;  // VMIN = 0: nothing after all
    return util::fail(fmt::format("reading {}: {}", path_, errno_text(err)));
  }
}

}  // namespace fathom::target
