#include <fmt/core.h>
#include <fmt/ranges.h>

#include "build/library_description.h"
#include "build/workload_catalog.h"
#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/paths.h"
#include "cli/suite_session.h"
#include "model/board.h"
#include "suite/board_loader.h"
#include "suite/suite_loader.h"
#include "util/error.h"

namespace fathom::cli {
namespace {

int list(const std::string& suite_name) {
  auto path = resolve_suite(suite_name);
  if (!path) throw util::FatalError(path.error().message, kExitUsage);
  const model::Suite suite_value = load_suite_or_throw(path->string());
  const model::Suite* suite = &suite_value;
  const auto firmware = repository_root() / "firmware";

  fmt::print("suite {} ({})\n", suite->name, path->string());
  if (!suite->description.empty()) fmt::print("  {}\n", suite->description);
  fmt::print("\nconfigurations:\n");
  std::vector<std::string> libraries;
  for (const auto& c : suite->configurations) {
    fmt::print("  {:<28} {:<10} {}\n", c.name, c.library, c.description);
    if (!c.operations.empty())
      fmt::print("  {:<28} runs only: {}\n", "", fmt::join(c.operations, ", "));
    // The libraries whose operations the image carries (not one linked only for its code).
    std::vector<std::string> linked = {c.library};
    for (const auto& lib : c.with_libraries)
      if (c.options_of(lib).operations) linked.push_back(lib);
    for (const auto& lib : linked)
      if (std::find(libraries.begin(), libraries.end(), lib) == libraries.end())
        libraries.push_back(lib);
  }
  fmt::print("\noperations:\n");
  for (const auto& lib : libraries) {
    // A library's operations are in its workloads folder (library.toml `workloads`).
    auto description = build::load_library(firmware, lib);
    if (!description) throw util::FatalError(description.error().message, kExitUsage);
    auto ops = build::workload_operations(firmware, description->workloads);
    fmt::print("  {:<14} {}\n", lib, fmt::join(ops, ", "));
  }
  if (!suite->operations.empty())
    fmt::print("  (this suite runs only: {})\n", fmt::join(suite->operations, ", "));
  fmt::print("\nboards:\n");
  for (const auto& name : suite::list_boards(firmware / "boards")) {
    auto board = suite::load_board(firmware / "boards", name);
    if (!board) {
      fmt::print("  {:<10} (invalid: {})\n", name, board.error().message);
      continue;
    }
    const bool used = std::find(suite->boards.begin(), suite->boards.end(), name) !=
                      suite->boards.end();
    // The target that runs the board's images, and a silicon port nobody has run here.
    fmt::print("  {:<16} {:<13} {:>4} MHz  {:<6}  {}{}{}\n", name, board->core,
               board->clock_hz / 1000000, model::to_string(board->target), board->description,
               board->verified_on_silicon ? "" : "  [not verified on silicon in this repository]",
               used ? "  [in suite]" : "");
  }
  return kExitOk;
}

}  // namespace

void register_list_command(CLI::App& app, CommandState& state) {
  auto suite = std::make_shared<std::string>();
  auto* cmd = app.add_subcommand("list", "List a suite's configurations, operations and boards");
  cmd->add_option("suite", *suite, "Suite name or path (default: default)");
  cmd->callback([suite, &state] { state.exit_code = list(*suite); });
}

}  // namespace fathom::cli
