#pragma once
// The plan stage: each (configuration, board) of a run is planned once, before anything is
// built — the board description, the libraries it links (each library.toml read once), their
// gate operations and primitive groups merged, the operations to ask for and the provenance as
// far as it is known. The build, the target and the results take the plan (and the ELF the
// build loaded), never re-reading a path.
#include <string>
#include <vector>

#include "build/library_description.h"
#include "model/board.h"
#include "model/run_result.h"
#include "model/suite.h"
#include "sources/source_lock.h"
#include "util/error.h"

namespace fathom::pipeline {

struct ImagePlan {
  const model::Configuration* configuration = nullptr;  // points into the suite
  model::Board board;
  // The configuration's library, then each of its `with_libraries`, as read from library.toml.
  std::vector<build::LibraryDescription> libraries;
  // The configuration's library with the gate operations and primitive groups of every
  // library of the image merged in: what the gate and the primitive share apply to.
  build::LibraryDescription gate;
  // The operations to run before the image says what it offers: the suite's or the command
  // line's list (empty = all) followed by the gate operations.
  std::vector<std::string> operations;
  model::Provenance provenance;  // tool, compiler, board, libraries, sources, runs
};

// What every plan of one run shares.
struct PlanInputs {
  std::filesystem::path firmware_dir;
  std::string compiler;                   // toolchain version line
  const sources::SourceLock* lock = nullptr;
  uint32_t runs = 0;
  uint32_t warmup = 0;
  std::vector<std::string> operations;    // empty = every operation of the image
  // The command line named `operations`: they replace a configuration's own list
  // (model::Configuration::operations), which otherwise replaces `operations`.
  bool operations_from_command_line = false;
};

// The provenance known from the configuration and the run alone (what a failed plan's image
// still carries).
model::Provenance base_provenance(const model::Configuration& configuration,
                                  const std::string& board_name, const PlanInputs& inputs);

// Plans `configuration` on `board_name`. Errors: an unknown board or library, a library.toml
// that does not parse.
util::Result<ImagePlan> plan_image(const model::Configuration& configuration,
                                   const std::string& board_name, const PlanInputs& inputs);

}  // namespace fathom::pipeline
