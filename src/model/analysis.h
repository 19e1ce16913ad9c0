#pragma once
// What fathom derives from a run's measurements across images: the fairness control (operations
// that run identical code must agree) and device workflows composed from operations.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fathom::model {

// One control operation checked across the images of one comparison group: images on the same
// board built from the same library, C library and compiler flags (and the same
// Configuration::fairness_group), which therefore run the same code for the operation.
struct FairnessCheck {
  std::string group;                        // "mbedtls, newlib-nano, -O2 on sim-m33"
  std::string operation;                    // "hkdf_sha256"
  std::vector<std::string> configurations;  // the group's images, in run order
  std::vector<double> median_cycles;        // per configuration; same order
  double spread_percent = 0;                // (max - min) / min × 100
  double tolerance_percent = 0.5;
  bool passed = false;
};

// One step of a workflow in one image: the sum of its operations' median cycles.
struct WorkflowStepResult {
  std::string name;                      // "key establishment"
  std::vector<std::string> operations;   // "ecdh_p256_keygen", "ecdh_p256_shared"
  double cycles = 0;                     // sum of the operations' median cycles
  uint64_t peak_stack_bytes = 0;         // the largest of the operations' peaks
  // The largest of the operations' heap peaks (each above the bytes in use at its start).
  uint64_t heap_peak_bytes = 0;
};

// One variant of a workflow ("classical", "post-quantum") evaluated in one image.
struct WorkflowResult {
  std::string workflow;                  // "receive-new-key"
  std::string variant;                   // "post-quantum-512"
  std::string configuration;
  std::string board;
  uint64_t clock_hz = 0;
  std::vector<WorkflowStepResult> steps;
  double total_cycles = 0;               // sum over the steps
  // Objects sent or received, and kept on the device, as "operation.object" with the size the
  // operation reported (docs/PROTOCOL.md, BYTES records).
  std::vector<std::pair<std::string, uint64_t>> wire_objects;
  std::vector<std::pair<std::string, uint64_t>> stored_objects;
  uint64_t wire_bytes = 0;
  uint64_t stored_bytes = 0;
  uint64_t peak_stack_bytes = 0;         // the workflow's peak: the largest step peak
  uint64_t heap_peak_bytes = 0;          // the largest step heap peak
  // Why the variant could not be evaluated in this image (an operation missing, untimed, or
  // without a reported size); the figures above are then unset (zero) and must not be shown.
  std::string error;
};

// Per workflow, configuration and board with two or more evaluated variants: which variant
// costs the fewest cycles, and every other variant's cost relative to it ("hunting-and-pecking
// is 1.62x hash-to-element"). Within the noise threshold (kNoiseThresholdPercent) of the
// cheapest, a variant is a tie.
struct WorkflowVerdict {
  std::string workflow, configuration, board;
  std::string cheapest;
  double cheapest_cycles = 0;
  struct Other {
    std::string variant;
    double cycles = 0;
    double ratio = 0;  // cycles / cheapest_cycles
    bool tie = false;
  };
  std::vector<Other> others;  // in suite order
};

}  // namespace fathom::model
