#include "profile/tracker_options.h"

#include "elf/harness_operations.h"

namespace fathom::profile {

TrackerOptions tracker_options_for(const elf::ElfImage& image) {
  TrackerOptions o;
  for (const auto& s : image.symbols())
    if (s.is_function) o.function_entries.push_back(s.address);
  if (auto ops = elf::harness_operation_entries(image))
    for (const auto& op : *ops) o.spans.push_back({op.name, op.run_address});
  return o;
}

}  // namespace fathom::profile
