#include "build/configuration_proof.h"

#include <fmt/core.h>

#include <optional>

#include "elf/debug_info.h"

namespace fathom::build {

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
  return {};
}

}  // namespace fathom::build
