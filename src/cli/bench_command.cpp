#include "cli/commands.h"
#include "util/error.h"

namespace fathom::cli {

void register_bench_command(CLI::App& app, CommandState& state) {
  auto* cmd = app.add_subcommand("bench", "(not yet implemented)");
  cmd->callback([&state] {
    (void)state;
    throw util::FatalError("'bench' is not implemented yet");
  });
}

}  // namespace fathom::cli
