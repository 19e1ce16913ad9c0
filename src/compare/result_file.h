#pragma once
// Results files: the JSON that `fathom run --format json` writes (report/json_writer.h), read
// back into the results model, so that `fathom compare` takes a file wherever it takes a stored
// run.
//
// A results file is untrusted input (it may be hand-edited, truncated or something else
// entirely): it is read by the results model's checked reader (model/run_result_json.h, which
// says which keys are required), and any problem is one error message that starts with the
// file's name and the JSON path of the offending value, e.g.
//   "a.json: images[0].operations[2].statistics.cycles.median: expected a finite number".
#include <filesystem>
#include <string>
#include <string_view>

#include "model/run_result.h"
#include "util/error.h"

namespace fathom::compare {

// True when the command-line word `text` names a results file rather than a stored run: it
// ends in ".json", or it is the path of an existing regular file. (A stored run whose name
// collides is still reachable by its run id.)
bool names_result_file(const std::string& text);

// Parses the results document `text`; `display_name` starts every error. All errors are usage
// errors (util::Error::is_usage): the file is the caller's input. A `schema_version` newer than
// model::RunResult::kSchemaVersion is refused with a hint to use a newer fathom.
//
// Measured figures come back as the file holds them: statistics are the file's (not recomputed
// from the samples), so an edited median is what a comparison sees.
util::Result<model::RunResult> parse_result_json(std::string_view text,
                                                 const std::string& display_name);

// Reads the file at `path` and parses it as above. A missing file or a directory is a usage
// error naming `path`; a file that exists but cannot be read is a runtime error.
util::Result<model::RunResult> read_result_file(const std::filesystem::path& path);

}  // namespace fathom::compare
