#include "util/progress.h"

#include <unistd.h>

#include <cstdio>

namespace fathom::util {

Progress::Progress() : enabled_(isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {}

Progress::~Progress() { clear(); }

void Progress::update(const std::string& message) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  // Carriage return + erase line, on stderr so it never mixes with results on stdout.
  std::fprintf(stderr, "\r\033[K%s", message.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::clear() {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace fathom::util
