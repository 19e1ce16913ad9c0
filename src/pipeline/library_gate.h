#pragma once
// A library's gate operations (library.toml `gate_operations`, docs/PROTOCOL.md "Gate
// operations"): operations whose known-answer tests vouch for the whole library build, such as
// wolfCrypt's own self-test. They always run, and unless every one of them passed its KAT in an
// image, no operation of that image keeps a timing.
#include <string>
#include <vector>

#include "build/library_description.h"
#include "model/run_result.h"

namespace fathom::pipeline {

// Correctness gates timing: whatever a target returned, an operation without a passing KAT
// keeps no timing, memory or primitive-share figures, and its error says which vectors failed.
void enforce_kat_gate(model::OperationResult& op);

// The operations to run in one image: `operations` (empty = every operation the image offers,
// which includes the gates) followed by each of `library`'s gate operations not already in it.

std::vector<std::string> with_gate_operations(const std::vector<std::string>& operations,
                                              const build::LibraryDescription& library);

// What a gate operation that held carries as OperationResult::not_timed.
extern const char* const kGateNotTimed;

// Applies `library`'s gate to one image's results: if a gate operation is missing from
// `operations` or did not pass its KAT, every operation (the gate's too) loses its timing and
// memory figures and gets the error "<gate_failure> (<gate>: <why>)", unless it already had an
// error of its own. If the gate held, the gate operations themselves lose their timing and
// memory figures (their timed run does nothing, so the figures are not their cost) and carry
// `not_timed` = kGateNotTimed. Returns whether the gate held (true also when the library has no
// gate).
bool enforce_library_gate(std::vector<model::OperationResult>& operations,
                          const build::LibraryDescription& library);

}  // namespace fathom::pipeline
