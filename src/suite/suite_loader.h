#pragma once
// Suite files: what to measure (configurations × operations × boards), read from TOML.
//
// The format is documented by suites/default.toml. Every error is one line
// `FILE:LINE:COL: message`. Unknown keys are errors, so a typo never silently becomes a
// default.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "model/suite.h"
#include "util/error.h"

namespace fathom::suite {

inline constexpr int64_t kMaxRuns = 100000;

// The names a suite refers to that live outside it (firmware/boards, firmware/libs). When given
// to the loader, `boards = [...]` and each configuration's `library` and `with_libraries` must
// be among them: an unknown one is a usage error at its `FILE:LINE:COL` listing the valid names,
// nearest first (util/name_suggestion.h), so a typo stops the run before anything is built.
struct KnownNames {
  std::vector<std::string> boards;
  std::vector<std::string> libraries;
};

// Reads and validates the suite file at `path`; `Suite::path` is set to `path`. A file that
// cannot be read is an error naming the file. `known` (may be null: names are not checked)
// as for parse_suite.
util::Result<model::Suite> load_suite(const std::filesystem::path& path,
                                      const KnownNames* known = nullptr);

// Parses suite `text`; `source_name` is the file name used in error messages (and stored in
// `Suite::path`). With `known`, board and library names are checked against it.
util::Result<model::Suite> parse_suite(std::string_view text, std::string source_name,
                                       const KnownNames* known = nullptr);

// The configuration called `name` in `suite`; an error listing the suite's configurations if
// there is none. The pointer is valid while `suite` is alive and unchanged.
util::Result<const model::Configuration*> find_configuration(const model::Suite& suite,
                                                             std::string_view name);

}  // namespace fathom::suite
