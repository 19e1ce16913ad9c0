#pragma once
// JSON text for the parts of a result that the history database keeps as one column each
// (provenance, fault, KAT vectors, raw samples), in both directions. The provenance keys are
// the ones of report/json_writer.cpp, so a stored provenance reads like the results file's.
// Decoding is of untrusted text (the database file may have been edited): every field is
// type-checked and a mismatch is an error, never a crash.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

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

// The same four shapes decoded from an already parsed JSON value, for readers of a whole
// results document (compare/result_file.h reads `fathom run --format json` files with them).
// `path` names `json` in error messages: a wrong type is "<path>.clock_hz: expected a
// non-negative integer that fits 64 bits", never a crash. Absent keys keep the model's
// defaults; in a fault, a null `function` (as the results file writes an unknown one) is "".
util::Result<model::Provenance> provenance_from_value(const nlohmann::ordered_json& json,
                                                      std::string_view path);
util::Result<model::Fault> fault_from_value(const nlohmann::ordered_json& json,
                                            std::string_view path);
util::Result<std::vector<model::KatVector>> kat_vectors_from_value(
    const nlohmann::ordered_json& json, std::string_view path);
util::Result<std::vector<uint64_t>> samples_from_value(const nlohmann::ordered_json& json,
                                                       std::string_view path);

// The simulator's memory figures of one operation and their cross-check with the harness's
// (OperationResult::sim_peak_stack_bytes, sim_heap_peak_bytes, sim_allocations,
// memory_mismatch), under the keys the results file's "memory" object uses; a missing figure
// is null. Reading sets exactly those four fields of `op`: absent or null keys leave them
// empty, a wrong type is an error and leaves `op` unchanged.
std::string simulator_memory_to_json(const model::OperationResult& op);
util::Result<void> simulator_memory_from_json(const std::string& text, model::OperationResult& op);
util::Result<void> simulator_memory_from_value(const nlohmann::ordered_json& json,
                                               std::string_view path, model::OperationResult& op);

// An operation's primitive share (model::OperationResult::primitive_share): an object of
// group -> fraction. Decoding refuses anything but finite numbers in [0, 1]; null or absent is
// the empty share (runs stored before shares existed).
std::string primitive_share_to_json(const std::map<std::string, double>& share);
util::Result<std::map<std::string, double>> primitive_share_from_json(const std::string& text);
// An operation's calls per primitive group (model::OperationResult::primitive_calls): an object
// of group: non-negative number; null reads as none.
util::Result<std::map<std::string, double>> primitive_calls_from_value(const nlohmann::ordered_json& json,
                                                                       std::string_view path);
util::Result<std::map<std::string, double>> primitive_share_from_value(
    const nlohmann::ordered_json& json, std::string_view path);

// An operation's object sizes (model::OperationResult::object_bytes): an object of
// name -> bytes, keys sorted. Decoding refuses a name outside [a-z0-9_]+ (what the BYTES record
// allows) and anything but a non-negative integer; null or absent is the empty map (results
// written before object sizes existed).
std::string object_bytes_to_json(const std::map<std::string, uint64_t>& object_bytes);
util::Result<std::map<std::string, uint64_t>> object_bytes_from_value(
    const nlohmann::ordered_json& json, std::string_view path);

}  // namespace fathom::history
