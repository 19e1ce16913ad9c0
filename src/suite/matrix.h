#pragma once
// The [matrix] table of a suite file: axes that every named [[configuration]] is expanded over,
// and exclusions. A matrix turns N named configurations into the cross product
// configuration × libc × optimization (× the suite's boards), minus what `exclude` removes, so
// that a suite says compactly what users compare. See suites/matrix.toml for the format.
//
//   [matrix]
//   libc = ["newlib", "newlib-nano", "picolibc"]   # replaces each configuration's libc
//   optimization = ["-O2", "-O3"]                  # replaces each configuration's -O flag
//   exclude = [ { configuration = "wolfssl-sp-asm", libc = "picolibc" },
//               { configuration = "pqclean", board = "sim-m0plus" } ]
//
// Every expanded configuration is named `<configuration>.<libc>.<O-level>` (only the axes the
// matrix has; "-O3" becomes "O3"), keeps its base name and axis values (Configuration::base_name
// and ::axes) for the matrix table, and lists the boards it runs on when an exclusion names a
// board. An exclusion is a conjunction of its keys (configuration, libc, optimization, board);
// one that matches nothing is an error, so a typo cannot silently keep a cell in the run.
#include <string_view>

#include <toml++/toml.h>

#include "model/suite.h"
#include "util/error.h"

namespace fathom::suite {

// The axis names, in expansion (and naming) order.
inline constexpr const char* kMatrixAxes[] = {"libc", "optimization"};

// Expands `suite.configurations` over the [matrix] table `matrix` (from the file `source_name`,
// for error positions). The suite's boards must already be set. On success the suite holds the
// expanded configurations and Suite::matrix_axes names the axes used.
util::Result<void> expand_matrix(model::Suite& suite, const toml::table& matrix,
                                 std::string_view source_name);

}  // namespace fathom::suite
