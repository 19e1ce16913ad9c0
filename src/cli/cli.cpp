#include "cli/cli.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/error_output.h"
#include "util/error.h"
#include "util/progress.h"
#include "util/name_suggestion.h"
#include "util/version.h"

namespace fathom::cli {
namespace {

// When the command line stopped short of a subcommand that `app` (or the subcommand it parsed,
// e.g. `baseline`) requires: "unknown command 'rnu'; did you mean 'run'? available commands:
// ..." for a word that is none (CLI11 leaves it in remaining()), "a command is required;
// available commands: ..." otherwise. nullopt when no subcommand was missing (the parser's own
// message stands).
std::optional<std::string> no_subcommand_message(CLI::App& app) {
  CLI::App* current = &app;
  std::string path = "fathom";
  while (!current->get_subcommands().empty()) {
    current = current->get_subcommands().front();
    path += " " + current->get_name();
  }
  std::vector<std::string> names;
  for (const CLI::App* sub : current->get_subcommands([](CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  if (names.empty() || current->get_require_subcommand_min() == 0) return std::nullopt;
  const std::string kind = current == &app ? "command" : current->get_name() + " command";
  const std::string help = fmt::format(" ({} --help describes them)", path);
  const std::vector<std::string> extra = current->remaining();
  if (!extra.empty() && !extra.front().empty() && extra.front().front() != '-')
    return util::unknown_name_message(kind, kind + "s", extra.front(), names) + help;
  return fmt::format("a {} is required; available {}s: {}{}", kind, kind, fmt::join(names, ", "),
                     help);
}

}  // namespace

int run(int argc, char** argv) {
  CLI::App app{"fathom: what cryptography costs on Arm Cortex-M"};
  app.set_version_flag("--version", fmt::format("fathom {} ({})", util::kToolVersion,
                                                util::kToolGitRevision));
  app.require_subcommand(1);
  CommandState state;
  register_run_command(app, state);
  register_merge_command(app, state);
  register_list_command(app, state);
  register_sources_command(app, state);
  register_bench_command(app, state);
  register_calibrate_command(app, state);
  register_history_command(app, state);
  register_baseline_command(app, state);
  register_size_command(app, state);
  register_profile_command(app, state);
  register_diagnose_command(app, state);
  register_compare_command(app, state);
  register_report_command(app, state);
  register_ct_command(app, state);
  // Every command: how much it says on stderr besides results, warnings and errors.
  for (CLI::App* cmd : app.get_subcommands([](CLI::App*) { return true; })) {
    auto* quiet = cmd->add_flag_callback(
        "-q,--quiet", [] { util::set_progress_mode(util::ProgressMode::kQuiet); },
        "No progress display and no notes on stderr (results, warnings and errors only)");
    auto* verbose = cmd->add_flag_callback(
        "-v,--verbose", [] { util::set_progress_mode(util::ProgressMode::kVerbose); },
        "Progress as one line per step on stderr, also when it is not a terminal (CI logs)");
    quiet->excludes(verbose);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    report_error(no_subcommand_message(app).value_or(e.what()), ErrorKind::kUsage, kExitUsage,
                 state.json_errors.json_command());
    return kExitUsage;
  } catch (const util::FatalError& e) {
    report_error(e.what(), error_kind_of_exit(e.exit_code()), e.exit_code(),
                 state.json_errors.json_command());
    return e.exit_code();
  } catch (const std::exception& e) {
    report_error(fmt::format("internal error: {}", e.what()), ErrorKind::kInternal, kExitFailure,
                 state.json_errors.json_command());
    return kExitFailure;
  }
  return state.exit_code;
}

}  // namespace fathom::cli
