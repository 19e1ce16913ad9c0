#pragma once
// `--out DIR`: for every command that writes files (run, merge, profile) --out names a
// directory, and fathom chooses the file names in it (results.json, results.<format>, one file
// per profile --format). One meaning, checked the same way everywhere (docs/CLI.md "Output
// files").
#include <filesystem>
#include <string>

#include "util/error.h"

namespace fathom::cli {

// Checks `out` before anything runs, without creating it. A usage error (util::Error::is_usage)
// naming `out` when it exists but is not a directory, or when it does not exist and its name
// ends in an extension of a file fathom writes (.json, .csv, .md, .txt, .folded, .callgrind,
// .html, .pqm4-md, .gbench, .github-benchmark): `--out results.json` meant a file, and would
// otherwise become a directory called results.json.
util::Result<void> check_output_directory(const std::string& out);

// check_output_directory, then creates `out` (and its parents). An error naming `out` when it
// cannot be created.
util::Result<std::filesystem::path> make_output_directory(const std::string& out);

}  // namespace fathom::cli
