#include "build/configuration_proof.h"

#include <capstone/capstone.h>
#include <fmt/core.h>

#include <memory>
#include <optional>
#include <set>

#include "elf/debug_info.h"

namespace fathom::build {
namespace {

// The mnemonics of the Thumb instructions in `symbol`'s extent (Capstone, Armv8-M with the
// M-profile extensions, as the simulator decodes). Data inside the extent (a literal pool)
// decodes as whatever it resembles; a proof names an instruction no literal makes likely.
util::Result<std::set<std::string>> mnemonics_of(const elf::ElfImage& elf, const elf::Symbol& symbol) {
  auto bytes = elf.read(symbol.address, symbol.size_bytes);
  if (!bytes)
    return util::fail(fmt::format("cannot read the code of '{}' ({} bytes at {:#x}) from the image",
                                  symbol.name, symbol.size_bytes, symbol.address));
  csh handle = 0;
  if (cs_open(CS_ARCH_ARM, static_cast<cs_mode>(CS_MODE_THUMB | CS_MODE_MCLASS | CS_MODE_V8),
              &handle) != CS_ERR_OK)
    return util::fail("cannot open the Capstone disassembler for Thumb");
  std::unique_ptr<csh, void (*)(csh*)> closer(&handle, [](csh* h) { cs_close(h); });
  cs_option(handle, CS_OPT_SKIPDATA, CS_OPT_ON);  // keep going past a literal pool
  std::set<std::string> out;
  cs_insn* insn = nullptr;
  const size_t n = cs_disasm(handle, bytes->data(), bytes->size(), symbol.address, 0, &insn);
  for (size_t i = 0; i < n; ++i) out.insert(insn[i].mnemonic);
  if (n) cs_free(insn, n);
  return out;
}

}  // namespace

util::Result<void> prove_configuration(const model::Configuration& configuration,
                                       const elf::ElfImage& elf,
                                       const std::filesystem::path& elf_path) {
  std::optional<elf::DebugInfo> debug;
  auto inlined = [&](const std::string& function) -> util::Result<bool> {
    if (!debug) {
      auto opened = elf::DebugInfo::open(elf_path);
      if (!opened) return tl::unexpected(opened.error());
      debug.emplace(std::move(*opened));
    }
    return debug->has_inlined_code_of(function);
  };
  for (const auto& s : configuration.expect_symbols_present) {
    if (elf.find_symbol(s)) continue;
    auto found = inlined(s);
    if (!found) return tl::unexpected(found.error());
    if (*found) continue;
    return util::fail(fmt::format(
        "configuration '{}' expects function '{}' in the linked image, but it is absent (no "
        "symbol and no inlined code of it): the build did not produce the configuration it "
        "claims (check its defines/undefines)",
        configuration.name, s));
  }
  for (const auto& s : configuration.expect_symbols_absent) {
    const bool symbol = elf.find_symbol(s) != nullptr;
    bool found = symbol;
    if (!found) {
      auto in_code = inlined(s);
      if (!in_code) return tl::unexpected(in_code.error());
      found = *in_code;
    }
    if (!found) continue;
    return util::fail(fmt::format(
        "configuration '{}' expects function '{}' to be absent, but the linked image contains "
        "it ({}): the build did not produce the configuration it claims (check its "
        "defines/undefines)",
        configuration.name, s, symbol ? "a symbol" : "inlined code"));
  }
  // Instructions: FUNCTION:MNEMONIC, checked in the function's own code. The function must be
  // in the image as a sized symbol either way (a proof about code that is not there proves
  // nothing).
  auto check_instructions = [&](const std::vector<std::string>& items,
                                bool present) -> util::Result<void> {
    for (const auto& item : items) {
      const auto colon = item.find(':');
      const std::string function = item.substr(0, colon), mnemonic = item.substr(colon + 1);
      const elf::Symbol* symbol = elf.find_symbol(function);
      if (!symbol || !symbol->is_function || symbol->size_bytes == 0)
        return util::fail(fmt::format(
            "configuration '{}' expects instruction '{}' {} function '{}', but the linked image "
            "has no sized function symbol '{}' (inlined or dropped): name a function the "
            "image keeps",
            configuration.name, mnemonic, present ? "in" : "not in", function, function));
      auto mnemonics = mnemonics_of(elf, *symbol);
      if (!mnemonics) return tl::unexpected(mnemonics.error());
      if (mnemonics->count(mnemonic) == (present ? 1u : 0u)) continue;
      return util::fail(fmt::format(
          "configuration '{}' expects instruction '{}' {} '{}', but it is {}: the build did not "
          "produce the configuration it claims (check its defines/undefines)",
          configuration.name, mnemonic, present ? "in" : "not in", function,
          present ? "absent" : "there"));
    }
    return {};
  };
  if (auto r = check_instructions(configuration.expect_instructions_present, true); !r) return r;
  if (auto r = check_instructions(configuration.expect_instructions_absent, false); !r) return r;
  return {};
}

}  // namespace fathom::build
