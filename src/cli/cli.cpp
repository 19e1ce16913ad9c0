#include "cli/cli.h"

#include <fmt/core.h>

#include <cstdio>
#include <exception>

#include "cli/commands.h"
#include "util/error.h"
#include "util/version.h"

namespace fathom::cli {

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
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    fmt::print(stderr, "fathom: {}\n", e.what());
    return kExitUsage;
  } catch (const util::FatalError& e) {
    fmt::print(stderr, "fathom: {}\n", e.what());
    return e.exit_code();
  } catch (const std::exception& e) {
    fmt::print(stderr, "fathom: internal error: {}\n", e.what());
    return kExitFailure;
  }
  return state.exit_code;
}

}  // namespace fathom::cli
