#include "cli/commands.h"
#include "util/error.h"

namespace fathom::cli {

void register_run_command(CLI::App& app, CommandState& state) {
  auto* cmd = app.add_subcommand("run", "(not yet implemented)");
  cmd->callback([&state] {
    (void)state;
    throw util::FatalError("'run' is not implemented yet");
  });
}

}  // namespace fathom::cli
