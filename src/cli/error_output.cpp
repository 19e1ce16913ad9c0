#include "cli/error_output.h"

#include <fmt/core.h>

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"

namespace fathom::cli {

std::string_view to_string(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return "usage";
    case ErrorKind::kRuntime:
      return "runtime";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "runtime";
}

ErrorKind error_kind_of_exit(int exit_code) {
  return exit_code == kExitUsage ? ErrorKind::kUsage : ErrorKind::kRuntime;
}

std::string error_json(std::string_view message, ErrorKind kind, int exit_code,
                       std::string_view command) {
  nlohmann::ordered_json error;
  error["kind"] = std::string(to_string(kind));
  error["exit_code"] = exit_code;
  error["command"] = std::string(command);
  error["message"] = std::string(message);
  nlohmann::ordered_json doc;
  doc["error"] = std::move(error);
  return doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

void JsonErrorFormats::add(const CLI::App& command, const CLI::Option& format) {
  entries_.push_back(Entry{&command, &format});
}

std::string JsonErrorFormats::json_command() const {
  for (const Entry& e : entries_) {
    if (!e.command->parsed()) continue;
    const std::vector<std::string>& given = e.format->results();
    if (!given.empty() && given.back() == "json") return e.command->get_name();
  }
  return "";
}

void report_error(std::string_view message, ErrorKind kind, int exit_code,
                  const std::string& json_command) {
  fmt::print(stderr, "fathom: {}\n", message);
  if (json_command.empty()) return;
  std::cout << error_json(message, kind, exit_code, json_command) << '\n';
  std::cout.flush();
}

}  // namespace fathom::cli
