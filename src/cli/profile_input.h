#pragma once
// What `fathom profile TARGET` was given: a bare-metal ELF file or a suite. Decided by the
// file's first bytes (the ELF magic 0x7f 'E' 'L' 'F'), not by its name, so that a text file or
// a raw binary is reported as "not an ELF file" instead of being read as a suite.
#include <string>

#include "util/error.h"

namespace fathom::cli {

enum class ProfileInput {
  kElf,    // an existing file that starts with the ELF magic
  kSuite,  // a suite: empty (the default), a name in suites/, or a path ending in .toml
};

// The kind of `target`. Usage errors (util::Error::is_usage):
//   "FILE: no such file" for a path (it has a '/' or a '.') that does not exist and is not a
//   suite name;
//   "FILE is not an ELF file (first bytes 68 65 6c 6c 6f 0a \"hello.\"; an ELF starts with
//   7f 45 4c 46) ..." for an existing file that is neither an ELF nor a .toml suite file (or
//   "FILE is empty ...", "FILE is a directory ...").
// A word without '/' or '.' that is not a file is a suite name (resolve_suite lists the known
// suites when there is no such suite).
util::Result<ProfileInput> classify_profile_input(const std::string& target);

}  // namespace fathom::cli
