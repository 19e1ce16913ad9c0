// Fuzz target: a results file (the JSON of `fathom run --format json`) as `fathom compare`
// reads it. parse_result_json must answer every input with a run or a usage error that starts
// with the file's name, never a crash or an escaped exception.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "compare/result_file.h"
#include "fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto run = fathom::compare::parse_result_json(text, "fuzz.json");
  if (!run) {
    FATHOM_FUZZ_CHECK(run.error().message.starts_with("fuzz.json: "));
    FATHOM_FUZZ_CHECK(run.error().is_usage);
    return 0;
  }
  for (const auto& image : run->images)
    for (const auto& op : image.operations) {
      if (op.cycles) FATHOM_FUZZ_CHECK(op.cycles->min <= op.cycles->max);
      if (op.instructions) FATHOM_FUZZ_CHECK(op.instructions->min <= op.instructions->max);
    }
  return 0;
}
