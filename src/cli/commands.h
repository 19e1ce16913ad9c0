#pragma once
// Registration of subcommands. Each subcommand lives in its own file and adds itself to `app`;
// its callback sets `exit_code` (or throws util::FatalError with a one-line message).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "cli/error_output.h"

namespace fathom::cli {

struct CommandState {
  int exit_code = 0;
  // The commands whose --format json is a document on stdout register that option here: their
  // errors are then a JSON document on stdout too (cli/error_output.h).
  JsonErrorFormats json_errors;
};

void register_run_command(CLI::App& app, CommandState& state);
void register_merge_command(CLI::App& app, CommandState& state);
void register_list_command(CLI::App& app, CommandState& state);
void register_sources_command(CLI::App& app, CommandState& state);
void register_bench_command(CLI::App& app, CommandState& state);
void register_calibrate_command(CLI::App& app, CommandState& state);
void register_history_command(CLI::App& app, CommandState& state);
void register_baseline_command(CLI::App& app, CommandState& state);
void register_size_command(CLI::App& app, CommandState& state);
void register_profile_command(CLI::App& app, CommandState& state);
void register_diagnose_command(CLI::App& app, CommandState& state);

// `fathom diagnose` on two configurations of `suite` (also `fathom compare --config A --config B`).
int diagnose_configurations(const std::string& suite, const std::vector<std::string>& configurations,
                            const std::vector<std::string>& operations, double threshold_percent);
void register_compare_command(CLI::App& app, CommandState& state);
void register_report_command(CLI::App& app, CommandState& state);
void register_ct_command(CLI::App& app, CommandState& state);

}  // namespace fathom::cli
