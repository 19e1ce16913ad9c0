#pragma once
// The width of the terminal a stream writes to, for output fitted to it (report/table_writer.h).
#include <cstddef>

namespace fathom::util {

// The columns of the terminal behind file descriptor `fd`: $COLUMNS when it is a positive
// number (a user's or a test's choice, also for a pipe), else the terminal's own width when
// `fd` is a terminal, else 0 (no limit: a file or a pipe gets whole lines).
size_t terminal_columns(int fd);

}  // namespace fathom::util
