#include "cli/suite_session.h"

#include "build/library_description.h"
#include "cli/cli.h"
#include "cli/paths.h"
#include "suite/board_loader.h"
#include "suite/suite_loader.h"
#include "util/error.h"
#include "util/progress.h"

namespace fathom::cli {

model::Suite load_suite_or_throw(const std::string& name_or_path) {
  auto path = resolve_suite(name_or_path);
  if (!path) throw util::FatalError(path.error().message, kExitUsage);
  // Board and library names are checked here, at their place in the file, not per image.
  const std::filesystem::path firmware = repository_root() / "firmware";
  const suite::KnownNames known{suite::list_boards(firmware / "boards"),
                                build::list_libraries(firmware)};
  auto suite = suite::load_suite(*path, &known);
  if (!suite) throw util::FatalError(suite.error().message, kExitUsage);
  return std::move(*suite);
}

model::RunResult run_suite_or_throw(const model::Suite& suite, pipeline::RunOptions options,
                                    pipeline::RunCounts* counts) {
  options.firmware_dir = repository_root() / "firmware";
  auto root = build_root();
  if (!root) throw util::FatalError(root.error().message);
  options.build_root = *root;
  if (auto v = pipeline::validate_options(suite, options); !v)
    throw util::FatalError(v.error().message, kExitUsage);
  util::Progress progress;
  auto result = pipeline::run_suite(suite, options, progress, counts);
  progress.clear();
  if (!result) {
    throw util::FatalError(result.error().message,
                           result.error().is_usage ? kExitUsage : kExitFailure);
  }
  return std::move(*result);
}

}  // namespace fathom::cli
