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
};

template <typename T>
using Result = tl::expected<T, Error>;

inline tl::unexpected<Error> fail(std::string message) {
  return tl::unexpected<Error>(Error{std::move(message)});
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
