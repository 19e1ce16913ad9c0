#include "target/command_template.h"

#include <fmt/core.h>

namespace fathom::target {

bool template_uses(const std::vector<std::string>& argv_template, std::string_view name) {
  const std::string placeholder = fmt::format("{{{}}}", name);
  for (const auto& arg : argv_template)
    if (arg.find(placeholder) != std::string::npos) return true;
  return false;
}

util::Result<std::vector<std::string>> expand_command(const std::vector<std::string>& argv_template,
                                                      const CommandFiles& files,
                                                      std::string_view what) {
  if (argv_template.empty())
    return util::fail_usage(fmt::format("the {} command is empty", what));
  std::vector<std::string> argv;
  argv.reserve(argv_template.size());
  for (const auto& arg : argv_template) {
    std::string out;
    size_t pos = 0;
    while (pos < arg.size()) {
      const size_t open = arg.find('{', pos);
      if (open == std::string::npos) {
        out.append(arg, pos, std::string::npos);
        break;
      }
      out.append(arg, pos, open - pos);
      const size_t close = arg.find('}', open);
      if (close == std::string::npos)
        return util::fail_usage(fmt::format("the {} command's argument '{}' has a '{{' that is "
                                            "never closed; placeholders are {{elf}}, {{hex}}, "
                                            "{{bin}} and {{port}}",
                                            what, arg));
      const std::string name = arg.substr(open + 1, close - open - 1);
      std::string value;
      if (name == "elf") value = files.elf.string();
      else if (name == "hex") value = files.hex.string();
      else if (name == "bin") value = files.bin.string();
      else if (name == "port") value = files.port;
      else
        return util::fail_usage(fmt::format("the {} command's argument '{}' names an unknown "
                                            "placeholder {{{}}}; use {{elf}}, {{hex}}, {{bin}} or "
                                            "{{port}}",
                                            what, arg, name));
      if (value.empty())
        return util::fail_usage(
            fmt::format("the {} command uses {{{}}}, but there is none for this run", what, name));
      out += value;
      pos = close + 1;
    }
    argv.push_back(std::move(out));
  }
  return argv;
}

std::string command_line(const std::vector<std::string>& argv) {
  std::string line;
  for (const auto& arg : argv) {
    if (!line.empty()) line += ' ';
    if (arg.empty() || arg.find_first_of(" \t'\"") != std::string::npos)
      line += '\'' + arg + '\'';
    else
      line += arg;
  }
  return line;
}

}  // namespace fathom::target
