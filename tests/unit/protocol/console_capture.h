#pragma once
// Test-only board console for firmware C code compiled into the unit tests: every
// fathom_console_write() call is recorded here instead of reaching a device.
#include <string>
#include <vector>

namespace fathom::protocol::testing {

struct ConsoleCapture {
  std::string bytes;                // everything written, in order
  std::vector<std::string> writes;  // one entry per fathom_console_write() call
};

// The capture shared by all tests in the process; tests clear it before use.
ConsoleCapture& console_capture();

}  // namespace fathom::protocol::testing
