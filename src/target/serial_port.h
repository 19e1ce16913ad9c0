#pragma once
// A serial port opened the way a board's UART needs it: raw bytes (no line discipline, no
// echo, no flow control), a fixed baud rate, and reads that wait with a deadline instead of
// blocking. Works on a real tty (a USB CDC-ACM or FTDI adapter) and on a pseudo-terminal's
// slave side (tests/e2e/test_serial.sh drives the target through one).
#include <chrono>
#include <cstdint>
#include <string>

#include "util/error.h"

namespace fathom::target {

class SerialPort {
 public:
  using Clock = std::chrono::steady_clock;

  // Opens `path` (O_RDWR | O_NOCTTY: never becomes our controlling terminal) in raw mode
  // (cfmakeraw: 8N1, no echo, no CR/LF translation), receiver on, modem lines ignored (CLOCAL),
  // no hardware or software flow control, VMIN = VTIME = 0, at `baud`. Errors: the path cannot
  // be opened (missing, busy, no permission: the message says which), it is not a terminal,
  // `baud` is not a rate termios offers (serial_speed), or the settings do not stick.
  static util::Result<SerialPort> open(const std::string& path, uint32_t baud);

  SerialPort(SerialPort&& other) noexcept;
  SerialPort& operator=(SerialPort&& other) noexcept;
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;
  ~SerialPort();

  // Discards whatever the port received before now (a previous image's tail, boot noise):
  // the kernel's input queue and anything readable at once.
  void drain();

  // What happened to one read.
  enum class ReadStatus {
    kData,     // at least one byte was appended
    kTimeout,  // nothing arrived before the deadline
    kClosed,   // the other end went away (USB adapter unplugged, pty master closed)
  };
  // Waits until bytes arrive or `deadline` passes and appends what is available (up to 4 KiB)
  // to `out`. Errors: a read or poll failure other than an interrupted call.
  util::Result<ReadStatus> read_some(std::string& out, Clock::time_point deadline);

  const std::string& path() const { return path_; }
  uint32_t baud() const { return baud_; }

 private:
  SerialPort(int fd, std::string path, uint32_t baud) : fd_(fd), path_(std::move(path)), baud_(baud) {}
  int fd_ = -1;
  std::string path_;
  uint32_t baud_ = 0;
};

// The termios speed constant for `baud` bits per second (B9600, B115200, ..., B4000000).
// Error: a rate termios has no constant for (e.g. 250000), naming the nearest supported ones.
util::Result<unsigned> serial_speed(uint32_t baud);

}  // namespace fathom::target
