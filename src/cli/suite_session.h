#pragma once
// What the suite-running subcommands (run, bench, calibrate, list) share: loading the suite
// named on the command line and running it, with errors mapped to the CLI's exit codes.
#include <string>

#include "model/run_result.h"
#include "model/suite.h"
#include "pipeline/suite_runner.h"

namespace fathom::cli {

// The suite named or pointed to by `name_or_path` (empty = default). Throws util::FatalError
// with kExitUsage for an unknown suite, a malformed file, or a board or library name that
// firmware/boards or firmware/libs does not have (`FILE:LINE:COL` and the valid names).
model::Suite load_suite_or_throw(const std::string& name_or_path);

// Runs `suite` with `options` (firmware_dir and build_root are filled in here). Throws
// util::FatalError: kExitUsage for bad options or an unknown operation, kExitFailure for
// anything that stops the whole run (no toolchain, no lock file). If `counts` is given, it
// receives what came from the build and result caches.
model::RunResult run_suite_or_throw(const model::Suite& suite, pipeline::RunOptions options,
                                    pipeline::RunCounts* counts = nullptr);

}  // namespace fathom::cli
