#include "build/toolchain.h"

#include <fmt/core.h>

#include <cstdlib>

#include "util/subprocess.h"

namespace fathom::build {

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
  return t;
}

}  // namespace fathom::build
