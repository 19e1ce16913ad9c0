#include "util/progress.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace fathom::util {
namespace {
std::atomic<ProgressMode> g_mode{ProgressMode::kAuto};
}  // namespace

void set_progress_mode(ProgressMode mode) { g_mode = mode; }
ProgressMode progress_mode() { return g_mode; }

Progress::Progress() {
  switch (progress_mode()) {
    case ProgressMode::kAuto:
      enabled_ = isatty(STDERR_FILENO);
      break;
    case ProgressMode::kQuiet:
      enabled_ = false;
      break;
    case ProgressMode::kVerbose:
      enabled_ = lines_ = true;
      break;
  }
}

Progress::~Progress() { clear(); }

void Progress::update(const std::string& message) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (lines_) {
    if (message == last_) return;
    last_ = message;
    std::fprintf(stderr, "fathom: %s\n", message.c_str());
    std::fflush(stderr);
    return;
  }
  // Carriage return + erase line.
  std::fprintf(stderr, "\r\033[K%s", message.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::clear() {
  if (!enabled_ || lines_) return;
  std::lock_guard lock(mutex_);
  if (!drawn_) return;
  std::fprintf(stderr, "\r\033[K");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace fathom::util
