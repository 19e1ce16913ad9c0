#pragma once
// Run parameters reach the firmware the same way on every target: in the image's
// `fathom_params` object (firmware/harness/fathom_harness.c), a const object in flash that the
// host fills before the image runs. The simulator writes the bytes into its flash after loading
// the image; QEMU and serial targets get a copy of the ELF file with the bytes patched in, so
// QEMU's loader and the board's flash tool see the parameters like any other constant.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "model/board.h"
#include "target/target.h"
#include "util/error.h"

namespace fathom::target {

// Where `fathom_params` lives and its encoded bytes for `params`. Errors: no such symbol (not a
// fathom image), a size that differs from the encoding (harness and host disagree), an object
// outside the board's flash (the startup code would overwrite it), more operation names than
// the object holds, or a per-operation run count (RunParameters::operation_runs) for an
// operation the image does not have, or of 0.
//
// Layout (little-endian 32-bit words, docs/PROTOCOL.md "Run parameters"): magic "FTH4", which
// names this layout; runs; warmup; only_ops (512 bytes, comma-separated names, NUL-padded);
// op_runs[64], the timed runs of the operation at that index of the image's .fathom_ops
// registry, 0 = `runs`; flags (bit 0: RunParameters::memory_in_timed_run, bit 1:
// RunParameters::secret_variants, bit 2: RunParameters::secret_fixed); secret_first (RunParameters::secret_first).
struct EncodedParameters {
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};
util::Result<EncodedParameters> encode_run_parameters(const elf::ElfImage& image,
                                                      const model::Board& board,
                                                      const RunParameters& params,
                                                      const std::string& display_name);

// The bytes of `params` alone, for an image whose .fathom_ops registry holds `registry` (its
// operation names in registry order; needed only for RunParameters::operation_runs). The
// errors of encode_run_parameters() that concern the parameters; `display_name` names the
// image in them.
util::Result<std::vector<uint8_t>> encode_parameter_bytes(const RunParameters& params,
                                                          const std::vector<std::string>& registry,
                                                          const std::string& display_name);

// Writes a copy of `elf_path` to `out_path` with the parameters patched into the file bytes
// of the loadable segment that holds `fathom_params` (bounds-checked against the file).
util::Result<void> write_patched_elf(const std::filesystem::path& elf_path,
                                     const elf::ElfImage& image,
                                     const EncodedParameters& encoded,
                                     const std::filesystem::path& out_path);

}  // namespace fathom::target
