#pragma once
// Builds a suite's firmware images without running them (for `fathom size`): the same
// (configuration, board) matrix and the same images as run_suite, so sizes match what runs.
#include <optional>
#include <string>
#include <vector>

#include "build/image_builder.h"
#include "build/toolchain.h"
#include "model/suite.h"
#include "pipeline/suite_runner.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::pipeline {

// One (configuration, board) of the matrix: the image, or why it could not be built.
struct SuiteImage {
  std::string configuration;
  std::string board;
  std::optional<build::BuiltImage> built;  // set when the build succeeded
  std::string error;                       // set when it did not
};

// Loads the board and library of `configuration`, fetches the library's pinned sources and
// builds (or brings up to date) the image for `board_name` from `options.firmware_dir` into
// `options.build_root`.
util::Result<build::BuiltImage> build_suite_image(const model::Configuration& configuration,
                                                  const std::string& board_name,
                                                  const RunOptions& options,
                                                  const build::Toolchain& toolchain,
                                                  util::Progress& progress);

// Builds every image that run_suite would run for `suite` and `options` (configurations and
// boards; operations, runs and warm-up are ignored). Only errors that stop everything (bad
// options, no toolchain) come back as an error; a failed build is recorded in its SuiteImage.
util::Result<std::vector<SuiteImage>> build_suite_images(const model::Suite& suite,
                                                         const RunOptions& options,
                                                         util::Progress& progress);

}  // namespace fathom::pipeline
