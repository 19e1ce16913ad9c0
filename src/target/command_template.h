#pragma once
// The argv templates of board.toml [serial] `flash` and `reset`: every "{elf}", "{hex}",
// "{bin}" and "{port}" inside an argument is replaced by the image's files and the serial port
// ("--serial={port}" works as well as "{port}" alone). No shell is involved: an argument stays
// one argument whatever it contains.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::target {

struct CommandFiles {
  std::filesystem::path elf;  // the patched ELF (always)
  std::filesystem::path hex;  // Intel HEX of it; made only when a template names {hex}
  std::filesystem::path bin;  // raw binary from the flash origin; only for {bin}
  std::string port;
};

// Whether any argument of `argv_template` contains the placeholder `{name}`.
bool template_uses(const std::vector<std::string>& argv_template, std::string_view name);

// `argv_template` with the placeholders replaced. Errors (usage: the board description is
// wrong): an empty template, a '{' that opens an unknown placeholder ("{file}") or is never
// closed, or a placeholder whose file was not made (empty in `files`).
util::Result<std::vector<std::string>> expand_command(const std::vector<std::string>& argv_template,
                                                      const CommandFiles& files,
                                                      std::string_view what);

// `argv` as one line for messages and the provenance; arguments with spaces are quoted.
std::string command_line(const std::vector<std::string>& argv);

}  // namespace fathom::target
