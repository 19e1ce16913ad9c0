#pragma once
// A one-line progress display for long work. It draws on the terminal only when standard output
// is a terminal; otherwise (pipes, CI logs, files) it prints nothing at all. update() and
// clear() may be called from several threads (parallel builds): each call draws whole.
#include <mutex>
#include <string>

namespace fathom::util {

class Progress {
 public:
  Progress();  // decides once whether stdout is a terminal
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Replaces the current progress line with `message`.
  void update(const std::string& message);
  // Erases the progress line (call before printing results).
  void clear();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool drawn_ = false;
  std::mutex mutex_;  // one line drawn at a time
};

}  // namespace fathom::util
