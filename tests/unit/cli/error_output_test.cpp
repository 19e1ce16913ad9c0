#include "cli/error_output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"

namespace fathom::cli {
namespace {

TEST(ErrorOutput, TheDocumentNamesKindExitCodeCommandAndMessage) {
  const std::string text =
      error_json("unknown board 'x'; available boards: \"a\", b", ErrorKind::kUsage, 2, "run");
  EXPECT_EQ(text.find('\n'), std::string::npos);  // one line
  const auto doc = nlohmann::ordered_json::parse(text);
  EXPECT_EQ(doc, nlohmann::ordered_json::parse(
                     R"({"error": {"kind": "usage", "exit_code": 2, "command": "run",
                         "message": "unknown board 'x'; available boards: \"a\", b"}})"));
  EXPECT_EQ(
      nlohmann::json::parse(error_json("boom", ErrorKind::kInternal, 1, "merge"))["error"]["kind"],
      "internal");
}

TEST(ErrorOutput, KindFollowsTheExitCode) {
  EXPECT_EQ(error_kind_of_exit(kExitUsage), ErrorKind::kUsage);
  EXPECT_EQ(error_kind_of_exit(kExitFailure), ErrorKind::kRuntime);
  EXPECT_EQ(to_string(ErrorKind::kRuntime), "runtime");
}

// A command line parsed as fathom parses it: `run` and `size` with a --format each.
struct Parsed {
  CLI::App app;
  std::string run_format = "table", size_format = "table";
  int runs = 0;
  JsonErrorFormats formats;

  Parsed() {
    app.require_subcommand(1);
    auto* run = app.add_subcommand("run");
    formats.add(*run,
                *run->add_option("--format", run_format)->check(CLI::IsMember({"table", "json"})));
    run->add_option("--runs", runs)->check(CLI::Range(1, 10));
    auto* size = app.add_subcommand("size");
    formats.add(*size, *size->add_option("--format", size_format));
  }
  // The command that wants its error as JSON after parsing `args`.
  std::string json_command(std::vector<std::string> args) {
    std::reverse(args.begin(), args.end());  // CLI11 takes them last first
    try {
      app.parse(args);
    } catch (const CLI::ParseError&) {
    }
    return formats.json_command();
  }
};

TEST(ErrorOutput, JsonOnlyForTheCommandGivenWithFormatJson) {
  EXPECT_EQ(Parsed().json_command({"run", "--format", "json"}), "run");
  EXPECT_EQ(Parsed().json_command({"run", "--format=json"}), "run");
  EXPECT_EQ(Parsed().json_command({"size", "--format", "json"}), "size");
  EXPECT_EQ(Parsed().json_command({"run"}), "");
  EXPECT_EQ(Parsed().json_command({"run", "--format", "table"}), "");
  EXPECT_EQ(Parsed().json_command({"run", "--format", "json", "--format", "table"}), "");
  EXPECT_EQ(Parsed().json_command({"size"}), "");
}

TEST(ErrorOutput, JsonAlsoWhenTheCommandLineFailsToParse) {
  EXPECT_EQ(Parsed().json_command({"run", "--bogus", "--format", "json"}), "run");
  EXPECT_EQ(Parsed().json_command({"run", "--format", "json", "--runs", "0"}), "run");
  EXPECT_EQ(Parsed().json_command({"run", "--format", "json", "--runs"}), "run");
  // An unknown command, or --format's value itself wrong: no JSON was asked for.
  EXPECT_EQ(Parsed().json_command({"rnu", "--format", "json"}), "");
  EXPECT_EQ(Parsed().json_command({"run", "--format", "jsn"}), "");
}

}  // namespace
}  // namespace fathom::cli
