#pragma once
// The one owner of the results model's JSON (schema_version = RunResult::kSchemaVersion): the
// document that `fathom run --format json` writes (report/json_writer.h adds its derived
// "fastest" marks and "warnings"), that the result cache keeps per image
// (pipeline/result_cache.h), that the history database keeps per run (history/run_store.h) and
// that `fathom compare` reads from a file (compare/result_file.h). docs/CLI.md "Results JSON"
// describes the keys.
//
// Writing: keys in a fixed order, every key always written. One rule for "none":
//   * an empty optional (no fault, no size, no statistics, no memory figure) is null;
//   * an empty "why" text (error, not_timed, memory mismatch, reused_from, an unknown fault
//     function, a workflow's configuration/board/error) is null;
//   * OperationResult::distinct_inputs 0 (every run repeated one input) is null;
//   * RunResult::shard empty (a whole run, merged or not) is null, and so is an empty target or
//     cross-check of a shard's selection;
//   * OperationResult::requested_runs 0 and RunsReason::kUnknown (not recorded) are null;
//   * empty lists and maps are [] and {}.
// A non-finite double (which the model never holds) is written as null and does not read back.
// The figures of an operation whose KAT did not pass are not written (samples [], statistics
// and memory figures null, primitive share and calls {}, distinct_inputs and samples_identical
// null), as in every
// report (report/writer.h). A workflow variant with an error has no figures: only its names and
// error are written. ImageResult::host_seconds is not part of the JSON (not deterministic).
//
// Reading is of untrusted text (a hand-edited file, an edited database): every value is
// type-checked, enum names must be known (parse_kat_status), and a problem is one error naming
// the JSON path: "images[2].operations[5].statistics.cycles.median: expected a finite number"
// ("(document)" for the root). Every key that the first schema-1 writer wrote is required
// ("<path>: missing"); keys added since within schema 1 may be absent, and absent reads as
// null, i.e. the model's "none" (so files written by older fathoms still read). Where the
// writer writes null for "none", null and "" (as older history records held) are accepted for
// a text. Unknown keys are ignored. Statistics are read as written, never recomputed from the
// samples. write -> read -> write gives the same bytes.
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/analysis.h"
#include "model/run_result.h"
#include "util/error.h"

namespace fathom::model {

using ResultJson = nlohmann::ordered_json;

// Writers. to_json(RunResult) is the whole document, schema_version first.
ResultJson to_json(const RunResult& run);
ResultJson to_json(const ImageResult& image);
ResultJson to_json(const OperationResult& op);
ResultJson to_json(const Provenance& provenance);
ResultJson to_json(const Fault& fault);
ResultJson to_json(const FairnessCheck& check);
ResultJson to_json(const WorkflowResult& workflow);
ResultJson to_json(const WorkflowVerdict& verdict);
ResultJson to_json(const ShardInfo& shard);
ResultJson to_json(const ShardSelection& selection);

// `json` as text: compact for `indent` < 0; invalid UTF-8 (a corrupt console line) replaced,
// never thrown.
std::string dump_json(const ResultJson& json, int indent = -1);

// The checked reader of a whole document. A schema_version newer than
// RunResult::kSchemaVersion is refused with a hint to use a newer fathom.
util::Result<RunResult> run_result_from_json(const ResultJson& json);

// Readers of the parts, for stores that keep a part on its own (the history database's columns
// of runs stored before it kept the whole document). `path` names `json` in error messages.
util::Result<ImageResult> image_result_from_json(const ResultJson& json, std::string_view path);
util::Result<Provenance> provenance_from_json(const ResultJson& json, std::string_view path);
util::Result<Fault> fault_from_json(const ResultJson& json, std::string_view path);
// An array of {name, passed} (OperationResult::kat_vectors).
util::Result<std::vector<KatVector>> kat_vectors_from_json(const ResultJson& json,
                                                           std::string_view path);
// An array of non-negative integers (cycle or instruction samples).
util::Result<std::vector<uint64_t>> samples_from_json(const ResultJson& json,
                                                      std::string_view path);
// An object of group -> fraction in [0, 1] (OperationResult::primitive_share); null is none.
util::Result<std::map<std::string, double>> primitive_share_from_json(const ResultJson& json,
                                                                      std::string_view path);

}  // namespace fathom::model
