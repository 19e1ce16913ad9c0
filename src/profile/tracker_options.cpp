#include "profile/tracker_options.h"

#include "elf/harness_operations.h"

namespace fathom::profile {

uint32_t memory_run_entry(const elf::ElfImage& image) {
  constexpr std::string_view kName = "memory_run";
  for (const auto& s : image.symbols()) {
    if (!s.is_function || !s.name.starts_with(kName)) continue;
    if (s.name.size() == kName.size() || s.name[kName.size()] == '.') return s.address;
  }
  return 0;
}

TrackerOptions tracker_options_for(const elf::ElfImage& image) {
  TrackerOptions o;
  for (const auto& s : image.symbols())
    if (s.is_function) o.function_entries.push_back(s.address);
  if (auto ops = elf::harness_operation_entries(image))
    for (const auto& op : *ops) o.spans.push_back({op.name, op.run_address});
  if (const uint32_t memory_run = memory_run_entry(image); memory_run != 0)
    o.excluded_callers.push_back(memory_run);
  return o;
}

}  // namespace fathom::profile
