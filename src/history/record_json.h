#pragma once
// JSON text for the parts of a result that the history database keeps as one column each
// (provenance, fault, KAT vectors, raw samples), in both directions. The provenance keys are
// the ones of report/json_writer.cpp, so a stored provenance reads like the results file's.
// Decoding is of untrusted text (the database file may have been edited): every field is
// type-checked and a mismatch is an error, never a crash.
#include <cstdint>
#include <string>
#include <vector>

#include "model/run_result.h"
#include "util/error.h"

namespace fathom::history {

std::string provenance_to_json(const model::Provenance& provenance);
util::Result<model::Provenance> provenance_from_json(const std::string& text);

std::string fault_to_json(const model::Fault& fault);
util::Result<model::Fault> fault_from_json(const std::string& text);

std::string kat_vectors_to_json(const std::vector<model::KatVector>& vectors);
util::Result<std::vector<model::KatVector>> kat_vectors_from_json(const std::string& text);

std::string samples_to_json(const std::vector<uint64_t>& samples);
util::Result<std::vector<uint64_t>> samples_from_json(const std::string& text);

}  // namespace fathom::history
