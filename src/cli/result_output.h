#pragma once
// What `fathom run` and `fathom merge` do with a finished result: write it (--out, --format),
// store it in the history (--db, --no-history, --name), report memory mismatches, and choose
// the exit code. One place, so that a merged run ends exactly as an unsharded run does.
#include <string>

#include <CLI/CLI.hpp>

#include "model/run_result.h"

namespace fathom::cli {

struct ResultOutput {
  std::string format = "table";  // a report::writer_formats() name, already checked
  bool wide = false;             // --wide: every column of the table (stdout and --out alike)
  std::string out_dir;           // also write results.json (and results.<format>) here
  std::string db;                // history database; "" = history::default_history_path()
  bool no_history = false;       // do not store the run
  std::string name;              // label of the stored run
};

// Adds --wide (ResultOutput::wide) to `cmd`, a command that ends in finish_run().
void add_wide_flag(CLI::App& cmd, bool& wide);

// Writes `result` to stdout in `output.format` (a table fitted to the terminal's width, and
// the files of --out, whose table has every column), stores it in the
// history unless `output.no_history`, and returns the command's exit code: kExitOk if
// result.all_passed(), else kExitFailure. Throws util::FatalError for an unknown format or an
// --out file that cannot be written.
int finish_run(const model::RunResult& result, const ResultOutput& output);

}  // namespace fathom::cli
