#include "cli/commands.h"
#include "util/error.h"

namespace fathom::cli {

void register_list_command(CLI::App& app, CommandState& state) {
  auto* cmd = app.add_subcommand("list", "(not yet implemented)");
  cmd->callback([&state] {
    (void)state;
    throw util::FatalError("'list' is not implemented yet");
  });
}

}  // namespace fathom::cli
