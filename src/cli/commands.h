#pragma once
// Registration of subcommands. Each subcommand lives in its own file and adds itself to `app`;
// its callback sets `exit_code` (or throws util::FatalError with a one-line message).
#include <CLI/CLI.hpp>

namespace fathom::cli {

struct CommandState {
  int exit_code = 0;
};

void register_run_command(CLI::App& app, CommandState& state);
void register_list_command(CLI::App& app, CommandState& state);
void register_sources_command(CLI::App& app, CommandState& state);
void register_bench_command(CLI::App& app, CommandState& state);
void register_calibrate_command(CLI::App& app, CommandState& state);
void register_history_command(CLI::App& app, CommandState& state);
void register_baseline_command(CLI::App& app, CommandState& state);
void register_size_command(CLI::App& app, CommandState& state);
void register_profile_command(CLI::App& app, CommandState& state);
void register_diagnose_command(CLI::App& app, CommandState& state);
void register_compare_command(CLI::App& app, CommandState& state);

}  // namespace fathom::cli
