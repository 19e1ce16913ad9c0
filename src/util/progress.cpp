#include "util/progress.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>

#include "util/terminal.h"

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
      columns_ = enabled_ ? terminal_columns(STDERR_FILENO) : 0;
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

void Progress::update(const std::string& message) { set_line("", message); }

void Progress::set_line(const std::string& key, const std::string& message) {
  if (!enabled_) return;
  std::lock_guard lock(mutex_);
  if (lines_) {
    if (message == last_) return;
    last_ = message;
    std::fprintf(stderr, "fathom: %s\n", message.c_str());
    std::fflush(stderr);
    return;
  }
  auto it = std::find_if(shown_.begin(), shown_.end(), [&](const auto& l) { return l.first == key; });
  if (it == shown_.end()) shown_.emplace_back(key, message);
  else it->second = message;
  draw();
}

void Progress::remove_line(const std::string& key) {
  if (!live()) return;
  std::lock_guard lock(mutex_);
  auto it = std::find_if(shown_.begin(), shown_.end(), [&](const auto& l) { return l.first == key; });
  if (it == shown_.end()) return;
  shown_.erase(it);
  draw();
}

void Progress::erase() {
  if (drawn_ == 0) return;
  // Back to the first line drawn, then erase from there to the end of the screen.
  if (drawn_ > 1) std::fprintf(stderr, "\033[%zuA", drawn_ - 1);
  std::fprintf(stderr, "\r\033[J");
  drawn_ = 0;
}

void Progress::draw() {
  erase();
  for (size_t i = 0; i < shown_.size(); ++i) {
    std::string line = shown_[i].second;
    // A line that wrapped would move the cursor further than the redraw goes back.
    if (columns_ > 1 && line.size() >= columns_) line = line.substr(0, columns_ - 1);
    std::fprintf(stderr, "%s%s", i ? "\n" : "", line.c_str());
  }
  drawn_ = shown_.size();
  std::fflush(stderr);
}

void Progress::clear() {
  if (!enabled_ || lines_) return;
  std::lock_guard lock(mutex_);
  shown_.clear();
  if (drawn_ == 0) return;
  erase();
  std::fflush(stderr);
}

}  // namespace fathom::util
