#include "console_capture.h"

#include <cstddef>

namespace fathom::protocol::testing {

ConsoleCapture& console_capture() {
  static ConsoleCapture capture;
  return capture;
}

}  // namespace fathom::protocol::testing

// The board layer's console (firmware/harness/fathom_board.h), for the host build of the
// firmware sources in the unit tests.
extern "C" void fathom_console_write(const char* buf, size_t len) {
  auto& capture = fathom::protocol::testing::console_capture();
  capture.bytes.append(buf, len);
  capture.writes.emplace_back(buf, len);
}
