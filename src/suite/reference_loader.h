#pragma once
// Reference measurement files (firmware/calibration/*.toml): published cycle counts on silicon
// that `fathom calibrate` compares the timing model against. The format is documented by
// firmware/calibration/pqm4_stm32l4r5.toml. Every error is one line `FILE:LINE:COL: message`;
// unknown keys are errors.
#include <filesystem>
#include <string>
#include <string_view>

#include "model/calibration.h"
#include "util/error.h"

namespace fathom::suite {

// Reads and validates the reference file at `path`.
util::Result<model::ReferenceSet> load_reference_set(const std::filesystem::path& path);

// Parses reference `text`; `source_name` is the file name used in error messages. Checks:
// schema_version = 1; name, source, device, suite, board present; at least one
// [[measurement]], each with a valid operation name (unique) and 1 <= cycles <= 10^15.
util::Result<model::ReferenceSet> parse_reference_set(std::string_view text,
                                                      std::string source_name);

}  // namespace fathom::suite
