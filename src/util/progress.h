#pragma once
// A progress display for long work, on stderr so that it never mixes with results on stdout.
// How it shows is the process's ProgressMode (fathom's --quiet / --verbose):
//   kAuto     one line, redrawn in place, whenever stderr is a terminal (also when stdout is a
//             pipe or a file: `fathom run --format json > out.json`); nothing otherwise;
//   kQuiet    nothing;
//   kVerbose  every new message as a line of its own ("fathom: ..."), terminal or not (CI logs).
// update() and clear() may be called from several threads (parallel builds): each call draws
// whole.
#include <mutex>
#include <string>

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

  // Replaces the current progress line with `message` (kVerbose: prints it, unless it repeats
  // the previous one).
  void update(const std::string& message);
  // Erases the progress line (call before printing results).
  void clear();
  bool enabled() const { return enabled_; }

 private:
  bool enabled_ = false;
  bool lines_ = false;  // kVerbose: one line per message
  bool drawn_ = false;
  std::string last_;
  std::mutex mutex_;  // one line drawn at a time
};

}  // namespace fathom::util
