#include "build/toolchain.h"

#include <fmt/core.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "build/ninja_file.h"
#include "util/subprocess.h"

namespace fathom::build {
namespace {

// `name` in a directory of PATH, or "" when none has it executable.
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return "";
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const std::string candidate = (std::filesystem::path(dir) / name).string();
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return "";
}

}  // namespace

util::Result<Toolchain> find_toolchain() {
  Toolchain t;
  if (const char* gcc = std::getenv("FATHOM_ARM_GCC"); gcc && *gcc) {
    t.gcc = gcc;
    const std::string suffix = "gcc";
    if (t.gcc.size() >= suffix.size() &&
        t.gcc.compare(t.gcc.size() - suffix.size(), suffix.size(), suffix) == 0)
      t.ar = t.gcc.substr(0, t.gcc.size() - suffix.size()) + "ar";
  }
  auto out = util::run_process({t.gcc, "--version"});
  if (!out || out->exit_code != 0)
    return util::fail(fmt::format(
        "the Arm cross compiler '{}' is missing or broken; run 'make setup' (installs "
        "gcc-arm-none-eabi and libnewlib-arm-none-eabi) or set FATHOM_ARM_GCC",
        t.gcc));
  t.version = out->stdout_text.substr(0, out->stdout_text.find('\n'));
  const char* ccache = std::getenv("FATHOM_CCACHE");
  const std::string choice = ccache ? ccache : "";
  if (choice == "0" || choice == "off") {
    t.ccache.clear();
  } else if (!choice.empty() && choice != "1" && choice != "on") {
    if (::access(choice.c_str(), X_OK) != 0)
      return util::fail(fmt::format(
          "FATHOM_CCACHE names '{}', which is not an executable; set it to ccache's path, or "
          "to 0 to compile the firmware without a compiler cache",
          choice));
    t.ccache = choice;
  } else {
    t.ccache = find_on_path("ccache");
  }
  return t;
}

std::string launcher_command(const Toolchain& tc) {
  if (tc.ccache.empty()) return "";
  // env -u drops a CCACHE_NOHASHDIR from the caller's environment (tests/e2e/
  // test_silicon_ports.sh exports one); CCACHE_HASHDIR and an empty CCACHE_BASEDIR override
  // the configuration files too.
  return "env -u CCACHE_NOHASHDIR CCACHE_HASHDIR=1 CCACHE_BASEDIR= " +
         NinjaFile::shell_arg(tc.ccache) + " ";
}

}  // namespace fathom::build
