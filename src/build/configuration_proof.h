#pragma once
// The proof that a linked image is the configuration it claims to be: a configuration's
// `expect.symbols_present` / `expect.symbols_absent` (suite files) name functions that only the
// code it selects has (e.g. wolfSSL's `AesEncrypt_C`, aes.c's C block encryption).
//
// A function is in the image when the image has a symbol of that name, or when its code was
// inlined into a live function (DWARF DW_TAG_inlined_subroutine with that abstract origin,
// read by elf::DebugInfo): at -Os GCC inlines `AesEncrypt_C` into its only caller, so a proof
// from the symbol table alone would fail an image that built exactly what it claims. Absent
// means neither: no symbol and no inlined copy in live code.
#include <filesystem>
#include <string>

#include "elf/elf_image.h"
#include "model/suite.h"
#include "util/error.h"

namespace fathom::build {

// Checks `configuration`'s expectations against `elf`, loaded from `elf_path` (whose DWARF is
// read only when a present function has no symbol, or to check absent functions). The error
// names the configuration and the function, and whether a present function is missing or an
// absent one was found as a symbol or as inlined code.
util::Result<void> prove_configuration(const model::Configuration& configuration,
                                       const elf::ElfImage& elf,
                                       const std::filesystem::path& elf_path);

}  // namespace fathom::build
