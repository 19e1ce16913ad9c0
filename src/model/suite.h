#pragma once
// What to measure: configurations × operations × boards, as read from a suite file.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fathom::model {

// The options of a library linked in through `with_libraries` ([configuration.library_options.
// NAME] in a suite file): its configuration macros, and whether its own operations (its
// workloads folder, with any gate operations there) join the image. A library linked only for
// another library's code (wolfSSL for the TLS interop workloads) leaves them out, so its
// operations never share names with the configuration library's.
struct LibraryOptions {
  std::vector<std::string> defines;
  std::vector<std::string> undefines;
  bool operations = true;
};

// One firmware configuration: a library plus options, built into one image per board.
struct Configuration {
  std::string name;                 // "mbedtls-no-nist-optim"
  std::string library;              // "mbedtls"
  // Libraries linked into the same image (with their default options unless library_options
  // says otherwise), whose operations join the image's ("with_libraries = [\"pqclean\"]"):
  // for workflows across libraries.
  std::vector<std::string> with_libraries;
  // Options of libraries in `with_libraries`, by name; a library not named here has its
  // defaults and its operations.
  std::map<std::string, LibraryOptions> library_options;
  // The options the `with_libraries` entry `name` is linked with: its library_options, else
  // the defaults (no macros, its operations in).
  LibraryOptions options_of(const std::string& name) const {
    const auto it = library_options.find(name);
    return it == library_options.end() ? LibraryOptions{} : it->second;
  }
  std::string description;
  // The operations its images run, replacing the suite's `operations` for this configuration
  // (a `fathom run --op` list replaces both); empty = the suite's. For a suite whose
  // configurations offer different operations (the TLS ports and the TLS interop image).
  std::vector<std::string> operations;
  std::vector<std::string> defines;    // library config macros to define: "NAME" or "NAME=VALUE"
  std::vector<std::string> undefines;  // library config macros to #undef
  std::vector<std::string> cflags;     // extra compiler flags (defaults: -O2)
  std::vector<std::string> harness_defines;  // harness-only macros (test hooks)
  // The C library the image links: "newlib", "newlib-nano" (newlib with nano.specs) or
  // "picolibc" (kLibcNames). The library archive is compiled against its headers too.
  std::string libc = "newlib-nano";
  // Boards this configuration runs on; empty = the suite's boards. Set by a matrix's
  // exclusions (a [matrix] exclude naming a board).
  std::vector<std::string> boards;
  // For a configuration expanded from a [matrix]: the named [[configuration]] it came from and
  // its value on each axis, in axis order ("libc" -> "picolibc", "optimization" -> "-O3").
  // Empty base_name = not from a matrix.
  std::string base_name;
  std::vector<std::pair<std::string, std::string>> axes;
  // Images of configurations with different fairness groups are never compared by the
  // fairness control, even if library, libc and flags agree (e.g. a configuration that swaps
  // the control operation's code for assembly). Empty = the default group.
  std::string fairness_group;
  // Properties the linked ELF must have; checked after linking (symbol names).
  std::vector<std::string> expect_symbols_present;
  std::vector<std::string> expect_symbols_absent;
  // "FUNCTION:MNEMONIC": the function's own code (its symbol's extent) contains / does not
  // contain that instruction (proofs of options that change code but no symbol, such as Mbed
  // TLS's MBEDTLS_HAVE_ASM: `umaal` in mbedtls_mpi_core_mla).
  std::vector<std::string> expect_instructions_present;
  std::vector<std::string> expect_instructions_absent;
};

// [fairness]: operations that run identical code in every image of a comparison group and must
// agree within tolerance_percent (src/analysis/fairness.h).
struct FairnessSpec {
  std::vector<std::string> operations;
  double tolerance_percent = 0.5;
};

// [[workflow]]: a device task composed from operations of one image, in variants
// (src/analysis/workflow.h).
struct WorkflowStep {
  std::string name;                     // "key establishment"
  std::vector<std::string> operations;  // run one after the other
};
struct WorkflowVariant {
  std::string name;                     // "classical"
  std::vector<WorkflowStep> steps;
  // "operation.object" references to sizes the operations report (BYTES records): what the
  // protocol sends and receives, and what the device must store.
  std::vector<std::string> wire;
  std::vector<std::string> stored;
};
struct Workflow {
  std::string name;
  std::string description;
  std::vector<WorkflowVariant> variants;
};

// The C libraries a configuration can link (Configuration::libc).
inline constexpr const char* kLibcNames[] = {"newlib", "newlib-nano", "picolibc"};

struct Suite {
  std::string name;
  std::string description;
  std::filesystem::path path;          // the file it was read from
  std::vector<std::string> boards;     // at least one
  std::vector<Configuration> configurations;
  std::vector<std::string> operations; // empty = all operations the library offers
  uint32_t runs = 10;                  // timed runs per operation
  // Operations that draw fresh inputs per timed run (signing, key generation: the harness's
  // random source advances between runs), as glob patterns (util/glob.h). On a deterministic
  // target every other operation repeats one input exactly, so it gets fewer timed runs
  // (pipeline/run_selection.h); these keep `runs`.
  std::vector<std::string> fresh_inputs;
  uint32_t warmup = 1;                 // untimed runs before them
  uint64_t cycle_budget = 50'000'000'000ULL;  // per image; exceeding it is a fault
  // The [matrix] axes the configurations were expanded over ("libc", "optimization"); empty
  // for a suite without [matrix]. With "board" when the suite has more than one board.
  std::vector<std::string> matrix_axes;
  std::optional<FairnessSpec> fairness;
  std::vector<Workflow> workflows;
};

// The boards `configuration` runs on in `suite`: its own subset (set by a matrix exclusion) or
// the suite's boards.
inline const std::vector<std::string>& boards_of(const Suite& suite,
                                                 const Configuration& configuration) {
  return configuration.boards.empty() ? suite.boards : configuration.boards;
}

}  // namespace fathom::model
