#include "compare/result_file.h"

#include <fmt/core.h>

#include <fstream>
#include <sstream>
#include <system_error>

#include "model/run_result_json.h"

namespace fathom::compare {

bool names_result_file(const std::string& text) {
  constexpr std::string_view kSuffix = ".json";
  if (text.size() >= kSuffix.size() &&
      text.compare(text.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
    return true;
  std::error_code ec;
  return std::filesystem::is_regular_file(text, ec);
}

util::Result<model::RunResult> parse_result_json(std::string_view text,
                                                 const std::string& display_name) {
  model::ResultJson json;
  try {
    json = model::ResultJson::parse(text);
  } catch (const model::ResultJson::parse_error& e) {
    return util::fail_usage(fmt::format(
        "{}: not valid JSON (byte {}); expected the output of `fathom run --format json`",
        display_name, e.byte));
  } catch (const model::ResultJson::out_of_range&) {  // a number beyond a double's range, e.g. 1e400
    return util::fail_usage(fmt::format(
        "{}: not valid JSON (a number too large for a double); expected the output of "
        "`fathom run --format json`",
        display_name));
  }
  auto run = model::run_result_from_json(json);
  if (!run) return util::fail_usage(fmt::format("{}: {}", display_name, run.error().message));
  return run;
}

util::Result<model::RunResult> read_result_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status))
    return util::fail_usage(fmt::format(
        "results file '{}' does not exist; give a file written by `fathom run --format json` "
        "or a stored run",
        path.string()));
  if (!std::filesystem::is_regular_file(status))
    return util::fail_usage(
        fmt::format("results file '{}' is not a regular file", path.string()));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  if (in.is_open()) content << in.rdbuf();
  if (!in.is_open() || in.bad())
    return util::fail(fmt::format("cannot read results file '{}'; check its permissions",
                                  path.string()));
  return parse_result_json(content.str(), path.string());
}

}  // namespace fathom::compare
