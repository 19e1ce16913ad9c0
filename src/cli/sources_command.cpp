#include "cli/commands.h"
#include "util/error.h"

namespace fathom::cli {

void register_sources_command(CLI::App& app, CommandState& state) {
  auto* cmd = app.add_subcommand("sources", "(not yet implemented)");
  cmd->callback([&state] {
    (void)state;
    throw util::FatalError("'sources' is not implemented yet");
  });
}

}  // namespace fathom::cli
