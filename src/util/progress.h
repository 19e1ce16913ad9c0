#pragma once
// A progress display for long work, on stderr so that it never mixes with results on stdout.
// How it shows is the process's ProgressMode (fathom's --quiet / --verbose):
//   kAuto     lines redrawn in place (one per image being worked on, set_lines), whenever
//             stderr is a terminal (also when stdout is a pipe or a file: `fathom run
//             --format json > out.json`); nothing otherwise; each line cut to the terminal's
//             width, so that the redraw stays in place;
//   kQuiet    nothing;
//   kVerbose  every new message as a line of its own ("fathom: ..."), terminal or not (CI logs).
// update() and clear() may be called from several threads (parallel builds): each call draws
// whole.
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace fathom::util {

enum class ProgressMode { kAuto, kQuiet, kVerbose };

// The mode of every Progress made afterwards (default kAuto); set once, from the command line.
void set_progress_mode(ProgressMode mode);
ProgressMode progress_mode();
// Whether a command prints its notes on stderr (what the caches saved, where a run was
// stored): not with --quiet. Warnings and errors print regardless.
inline bool notes_enabled() { return progress_mode() != ProgressMode::kQuiet; }

class Progress {
 public:
  Progress();  // reads progress_mode() and whether stderr is a terminal, once
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Replaces the first progress line with `message` (set_line("", message)).
  void update(const std::string& message);
  // The live view's line `key` (one per image being worked on: "mbedtls on sim-m33"), added
  // below the others the first time, replaced afterwards; kVerbose prints `message` as update()
  // does.
  void set_line(const std::string& key, const std::string& message);
  // Removes line `key` from the live view (its work is done).
  void remove_line(const std::string& key);
  // Whether the display redraws in place (kAuto on a terminal).
  bool live() const { return enabled_ && !lines_; }
  // Erases the progress line (call before printing results).
  void clear();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool lines_ = false;  // kVerbose: one line per message
  size_t drawn_ = 0;    // lines on screen
  size_t columns_ = 0;  // the terminal's width (0: unknown)
  std::vector<std::pair<std::string, std::string>> shown_;  // live view: key, line
  void draw();   // with mutex_ held
  void erase();  // with mutex_ held
  std::string last_;
  std::mutex mutex_;  // one line drawn at a time
};

}  // namespace fathom::util
