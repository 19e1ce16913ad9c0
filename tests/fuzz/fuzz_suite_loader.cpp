// Fuzz target: a suite file (suites/*.toml) as text. parse_suite must answer every input with a
// suite or an error located in the file ("fuzz.toml:LINE:COL: ..."), never a crash or an
// escaped exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "suite/suite_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto suite = fathom::suite::parse_suite(text, "fuzz.toml");
  if (!suite) {
    FATHOM_FUZZ_CHECK(suite.error().message.starts_with("fuzz.toml:"));
    return 0;
  }
  FATHOM_FUZZ_CHECK(!suite->configurations.empty());
  FATHOM_FUZZ_CHECK(!suite->boards.empty());
  for (const auto& config : suite->configurations) {
    auto found = fathom::suite::find_configuration(*suite, config.name);
    FATHOM_FUZZ_CHECK(found && (*found)->name == config.name);
  }
  FATHOM_FUZZ_CHECK(!fathom::suite::find_configuration(*suite, "no such configuration!"));
  return 0;
}
