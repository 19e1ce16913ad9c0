#pragma once
// Writes a build.ninja file. Paths and arguments are escaped for ninja ($, space, colon) and for
// the /bin/sh that runs each command.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace fathom::build {

class NinjaFile {
 public:
  void variable(const std::string& name, const std::string& value);
  void rule(const std::string& name, const std::string& command, const std::string& depfile = "");
  void build(const std::vector<std::string>& outputs, const std::string& rule,
             const std::vector<std::string>& inputs,
             const std::vector<std::string>& implicit_inputs = {},
             const std::vector<std::pair<std::string, std::string>>& variables = {});
  const std::string& text() const { return text_; }

  // `arg` quoted for /bin/sh (single quotes) and then escaped for a ninja command line.
  static std::string shell_arg(const std::string& arg);
  // `path` escaped for a ninja build statement.
  static std::string path(const std::string& path);
  // A NinjaFile text with ninja's escapes ("$$", "$ ", "$:") and, outside build statements,
  // the shell quoting of shell_arg() taken out: paths and arguments spelled as the tools
  // receive them, whatever characters they hold. Not a ninja file any more; for a key that
  // must see a path the same way whether or not it needed escaping (build/build_key.h).
  static std::string unquoted(const std::string& text);

 private:
  std::string text_;
};

// Writes `content` to `file` only if it differs, so unchanged generated files keep their
// timestamps and do not trigger rebuilds. Returns false on an I/O error.
bool write_if_changed(const std::filesystem::path& file, const std::string& content);

}  // namespace fathom::build
