#pragma once
// The operations a library's workloads define, read from the workload sources without building
// them: each operation is a `fathom_op` with a `.name = "..."` designated initializer
// (firmware/harness/fathom_harness.h asks for that form). The authoritative list is the built
// image's registry (elf/harness_operations.h); this one serves `fathom list` before a build.
#include <filesystem>
#include <string>
#include <vector>

namespace fathom::build {

// Operation names found in `<firmware_dir>/workloads/<library>/*.c`, in file then source order.
std::vector<std::string> workload_operations(const std::filesystem::path& firmware_dir,
                                             const std::string& library);

}  // namespace fathom::build
