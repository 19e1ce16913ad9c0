#pragma once
// Operations whose stack outgrows the board's stack reserve (model::Board::stack_bytes, carried
// as Provenance::stack_reserve_bytes). The simulator maps the whole RAM, so such a run completes
// here, but on the part it would overrun the stack into other data: the run's figures are not
// what the part would do. Derived from the results, so reused and stored results say it too.
#include <cstdint>
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::report {

struct StackOverrun {
  const model::ImageResult* image = nullptr;
  const model::OperationResult* operation = nullptr;
  // The deeper of the harness's and the simulator's peak (bytes below the run function's entry
  // SP), and the board's reserve.
  uint64_t peak_stack_bytes = 0;
  uint32_t stack_reserve_bytes = 0;
};

// Every operation of `run` whose KAT passed and whose peak stack exceeds its image's stack
// reserve, in image and operation order. Images without a known reserve (0) are skipped.
std::vector<StackOverrun> stack_overruns(const model::RunResult& run);

// "WARNING: ecdsa_p256_sign (mbedtls on sim-m33) used 53,248 bytes of stack, more than the
// board's 32,768-byte stack reserve: on the part it would overrun its stack".
std::string stack_overrun_text(const StackOverrun& overrun);

}  // namespace fathom::report
