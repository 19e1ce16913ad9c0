#include "util/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace fathom::util {

size_t terminal_columns(int fd) {
  if (const char* columns = std::getenv("COLUMNS"); columns && *columns) {
    char* end = nullptr;
    const unsigned long n = std::strtoul(columns, &end, 10);
    if (*end == '\0' && n > 0 && n < 100000) return n;
  }
  if (!::isatty(fd)) return 0;
  struct winsize size {};
  if (::ioctl(fd, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) return size.ws_col;
  return 0;
}

}  // namespace fathom::util
