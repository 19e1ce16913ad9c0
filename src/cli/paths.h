#pragma once
// Where the CLI finds the repository's data (suites, firmware) and its build cache.
#include <filesystem>

#include "util/error.h"

namespace fathom::cli {

// The repository root, absolute: FATHOM_HOME if set, else the source directory this binary was
// built from, else (a binary copied out of its build tree) the working directory.
std::filesystem::path repository_root();
// Default suite file (suites/default.toml).
std::filesystem::path default_suite_path();
// The suite named on the command line: a path to a TOML file, or the name of a suite in
// suites/ ("default"). An error lists the suites that exist.
util::Result<std::filesystem::path> resolve_suite(const std::string& name_or_path);
// Where firmware images are built: <cache>/builds.
util::Result<std::filesystem::path> build_root();
// Where measured results are kept between runs (pipeline/result_cache.h): <cache>/results.
util::Result<std::filesystem::path> result_cache_root();

}  // namespace fathom::cli
