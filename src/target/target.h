#pragma once
// A Target runs one firmware image and reports what happened: the simulator today, a QEMU
// machine or a real board over a UART later. Every implementation yields the same facts.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/board.h"
#include "model/run_result.h"
#include "util/error.h"

namespace fathom::target {

struct RunRequest {
  std::filesystem::path elf;
  const model::Board* board = nullptr;
  uint32_t runs = 10;                    // timed runs per operation
  uint32_t warmup = 1;                   // untimed runs before them
  std::vector<std::string> operations;   // run only these; empty = all in the image
  uint64_t cycle_budget = 2'000'000'000ULL;
};

// What one image run produced. Partial results survive a fault or a damaged stream.
struct TargetRun {
  bool completed = false;                 // END record received and consistent
  std::optional<model::Fault> fault;
  std::vector<std::string> errors;        // protocol problems, one line each
  std::vector<model::OperationResult> operations;
  std::vector<std::string> console_log;   // free-text lines from the firmware
  uint64_t total_cycles = 0;
  uint64_t total_instructions = 0;
  std::string timing_model;               // empty for targets that measure real hardware
  std::string isolation;                  // the ISOLATION record's method ("snapshot", "none")
  std::vector<std::string> run_order;     // operations in the order they were timed
  double host_seconds = 0;
};

class Target {
 public:
  virtual ~Target() = default;
  virtual std::string name() const = 0;
  // An error only when the image cannot be run at all (unusable ELF, bad parameters); faults
  // and protocol problems are data in TargetRun.
  virtual util::Result<TargetRun> run(const RunRequest& request) = 0;
};

}  // namespace fathom::target
