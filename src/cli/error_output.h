#pragma once
// How a command that fails says so. stderr always has the human message, "fathom: <message>".
// When the command was asked for JSON on stdout (`--format json` of run, merge, compare,
// history and size: the commands whose JSON is one document on stdout), stdout has one JSON
// object in place of that document, so that a script parsing stdout gets JSON in every case:
//   {"error": {"kind": "usage", "exit_code": 2, "command": "run", "message": "unknown ..."}}
// `kind`: "usage" (exit 2: the command line, a suite file or an input file is at fault),
// "runtime" (exit 1: the command could not do its work, e.g. a source could not be fetched) or
// "internal" (exit 1: an unexpected exception, a bug in fathom). `message` is the stderr text
// without "fathom: ". The exit code is the same with and without --format json (docs/CLI.md
// "Errors as JSON").
#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace fathom::cli {

enum class ErrorKind { kUsage, kRuntime, kInternal };

// "usage", "runtime", "internal".
std::string_view to_string(ErrorKind kind);

// The kind of an error that ends a command with `exit_code` (kExitUsage: usage, else runtime).
ErrorKind error_kind_of_exit(int exit_code);

// The error document, one line without a newline.
std::string error_json(std::string_view message, ErrorKind kind, int exit_code,
                       std::string_view command);

// The --format options whose value "json" means one JSON document on stdout, each with its
// command.
class JsonErrorFormats {
 public:
  // `format` is `command`'s --format option.
  void add(const CLI::App& command, const CLI::Option& format);
  // The name of the command that was given (CLI::App::parsed) with --format json (the last
  // --format given, as the command line has it, also when parsing failed after reading it);
  // "" when none was.
  std::string json_command() const;

 private:
  struct Entry {
    const CLI::App* command;
    const CLI::Option* format;
  };
  std::vector<Entry> entries_;
};

// Prints "fathom: <message>" on stderr and, when `json_command` is not empty, the error
// document on stdout.
void report_error(std::string_view message, ErrorKind kind, int exit_code,
                  const std::string& json_command);

}  // namespace fathom::cli
