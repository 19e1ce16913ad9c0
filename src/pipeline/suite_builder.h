#pragma once
// Builds a suite's firmware images: the (configuration, board) matrix in suite order, the
// library sources fetched once per library, and one image build per entry. run_suite builds
// through the same functions, so `fathom size` sizes exactly the images that run.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "build/image_builder.h"
#include "build/toolchain.h"
#include "model/board.h"
#include "model/suite.h"
#include "pipeline/image_plan.h"
#include "pipeline/suite_runner.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::pipeline {

// One (configuration, board) of the matrix. `configuration` points into the suite.
struct MatrixEntry {
  const model::Configuration* configuration = nullptr;
  std::string board;
};

// The suite's matrix after `options` (configuration subset, board override), configurations
// in suite order and, for each, its boards (model::boards_of) in order; with `options.shard`,
// only that shard's entries of it (model::image_in_shard), in the same order.
std::vector<MatrixEntry> suite_matrix(const model::Suite& suite, const RunOptions& options);

// A library's third-party source tree, ready to build from.
struct LibrarySource {
  std::filesystem::path root;
  // What the build key (build/build_key.h) knows it by: the lock's archive SHA-256, or, when
  // the lock entry's environment variable overrides the tree, a digest of the tree's files.
  std::string identity;
};

// Fetches the sources of every library that `matrix` uses, once each (sequentially, before any
// parallel build starts). A library that is unknown or cannot be fetched maps to its error, so
// only its images fail.
// Library name -> its fetched sources (or why they could not be fetched).
using LibrarySources = std::map<std::string, util::Result<LibrarySource>>;

std::map<std::string, util::Result<LibrarySource>> fetch_library_sources(
    const std::vector<MatrixEntry>& matrix, const RunOptions& options, util::Progress& progress);

// Parallel jobs for each image's ninja when `image_jobs` images build at once: ninja's own
// default for one image at a time, else the online CPUs shared out (at least 1), so the total
// stays about the CPU count.
unsigned ninja_jobs_per_image(unsigned image_jobs);

// Builds (or reuses from the build cache) the image of `plan` (its configuration on its board,
// with the libraries it read) from `sources` into `options.build_root`. Status lines go to
// `progress`.
util::Result<build::BuiltImage> build_suite_image(const ImagePlan& plan,
                                                  const LibrarySources& sources,
                                                  const RunOptions& options,
                                                  const build::Toolchain& toolchain,
                                                  util::Progress& progress);

// One (configuration, board) of the matrix: the image, or why it could not be built.
struct SuiteImage {
  std::string configuration;
  std::string board;
  std::optional<build::BuiltImage> built;  // set when the build succeeded
  std::string error;                       // set when it did not
};

// Builds every image that run_suite would run for `suite` and `options` (configurations and
// boards; operations, runs and warm-up are ignored), `options.jobs` at a time, in suite order.
// Only errors that stop everything (bad options, no toolchain) come back as an error; a failed
// build is recorded in its SuiteImage.
util::Result<std::vector<SuiteImage>> build_suite_images(const model::Suite& suite,
                                                         const RunOptions& options,
                                                         util::Progress& progress);

}  // namespace fathom::pipeline
