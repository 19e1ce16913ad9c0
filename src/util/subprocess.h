#pragma once
// Running an external program without a shell and capturing what it says.
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/error.h"

namespace fathom::util {

// What a finished child process left behind.
struct ProcessOutput {
  // The exit status (0..255) if the child exited; 128 + signal number if a signal killed it.
  int exit_code = 0;
  std::string stdout_text;
  std::string stderr_text;
  // The child ran past ProcessOptions::timeout and was killed (SIGKILL); exit_code is then
  // 128 + 9.
  bool timed_out = false;
};

struct ProcessOptions {
  // Directory the child starts in; empty = the caller's current directory.
  std::filesystem::path working_directory{};
  // Longest the child may run; empty = no limit.
  std::optional<std::chrono::milliseconds> timeout{};
};

// Runs `argv[0]` (looked up in PATH when it has no slash) with arguments `argv[1..]`, with
// stdin from /dev/null, and waits for it. Both output streams are captured in full.
// A non-zero exit is NOT an error here: the caller reads `exit_code`. Errors are only for a
// child that could not be started at all (empty `argv`, program not found, no such
// working directory).
Result<ProcessOutput> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options = {});

// The last non-empty line of `text` (without its newline), or "" if there is none. Useful for
// quoting a failed tool's final complaint in a one-line error.
std::string last_line(const std::string& text);

}  // namespace fathom::util
