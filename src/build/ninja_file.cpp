#include "build/ninja_file.h"

#include <fstream>
#include <iterator>
#include <sstream>

namespace fathom::build {

std::string NinjaFile::shell_arg(const std::string& arg) {
  bool plain = !arg.empty();
  for (char c : arg)
    if (!(isalnum(static_cast<unsigned char>(c)) || std::string_view("-_=./,+:@%").find(c) !=
                                                        std::string_view::npos))
      plain = false;
  std::string quoted;
  if (plain) {
    quoted = arg;
  } else {
    quoted = "'";
    for (char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
  }
  std::string out;
  for (char c : quoted) out += c == '$' ? std::string("$$") : std::string(1, c);
  return out;
}

std::string NinjaFile::path(const std::string& p) {
  std::string out;
  for (char c : p) {
    if (c == '$' || c == ' ' || c == ':') out += '$';
    out += c;
  }
  return out;
}

std::string NinjaFile::unquoted(const std::string& text) {
  // Build statements hold paths (path(): ninja escapes only); every other line's arguments went
  // through shell_arg() (ninja escapes over shell quotes).
  std::string out;
  bool quoted = false;
  bool statement = true;
  for (size_t i = 0; i < text.size(); ++i) {
    if (i == 0 || text[i - 1] == '\n') {
      statement = text.compare(i, 6, "build ") == 0;
      quoted = false;
    }
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == '$' && (next == '$' || next == ' ' || next == ':')) {
      out += next;
      ++i;
    } else if (statement) {
      out += c;
    } else if (c == '\'') {
      quoted = !quoted;
    } else if (!quoted && c == '\\' && next == '\'') {
      out += '\'';
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

void NinjaFile::variable(const std::string& name, const std::string& value) {
  text_ += name + " = " + value + "\n";
}

void NinjaFile::rule(const std::string& name, const std::string& command,
                     const std::string& depfile) {
  text_ += "rule " + name + "\n  command = " + command + "\n";
  if (!depfile.empty()) text_ += "  depfile = " + depfile + "\n  deps = gcc\n";
}

void NinjaFile::build(const std::vector<std::string>& outputs, const std::string& rule,
                      const std::vector<std::string>& inputs,
                      const std::vector<std::string>& implicit_inputs,
                      const std::vector<std::pair<std::string, std::string>>& variables) {
  text_ += "build";
  for (const auto& o : outputs) text_ += " " + path(o);
  text_ += ": " + rule;
  for (const auto& i : inputs) text_ += " " + path(i);
  if (!implicit_inputs.empty()) {
    text_ += " |";
    for (const auto& i : implicit_inputs) text_ += " " + path(i);
  }
  text_ += "\n";
  // Bindings scoped to this build edge (values are already shell-quoted by the caller).
  for (const auto& [name, value] : variables) text_ += "  " + name + " = " + value + "\n";
}

bool write_if_changed(const std::filesystem::path& file, const std::string& content) {
  {
    std::ifstream in(file, std::ios::binary);
    if (in) {
      std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (old == content) return true;
    }
  }
  std::filesystem::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << content;
  return static_cast<bool>(out);
}

}  // namespace fathom::build
