#pragma once
// Error values for recoverable failures, and the one exception type that ends the program.
#include <stdexcept>
#include <string>
#include <utility>

#include <tl/expected.hpp>

namespace fathom::util {

// A recoverable failure: one line saying what went wrong, where, and what to do.
struct Error {
  std::string message;
  // True when the caller's input is at fault (an unknown name, a bad option): the CLI maps it
  // to the usage exit code instead of a runtime failure.
  bool is_usage = false;
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(std::string message) {
  return tl::unexpected<Error>(Error{std::move(message)});
}

// A failure caused by the caller's input (see Error::is_usage).
inline tl::unexpected<Error> fail_usage(std::string message) {
  return tl::unexpected<Error>(Error{std::move(message), true});
}

// Thrown only at the top of a command to end it with a message and a non-zero exit.
// `exit_code` follows docs/CLI.md (2 usage error, 1 runtime failure).
class FatalError : public std::runtime_error {
 public:
  explicit FatalError(const std::string& message, int exit_code = 1)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace fathom::util
