#include "profile/symbolize.h"

#include <algorithm>
#include <unordered_map>

namespace fathom::profile {

void symbolize(ProfileSet& set, elf::DebugInfo& debug) {
  std::unordered_map<uint32_t, uint32_t> frame_of_entry;
  std::vector<std::pair<uint32_t, uint32_t>> label_frames;  // (address, frame), sorted below
  for (uint32_t i = 0; i < set.frames.size(); ++i) {
    Frame& f = set.frames[i];
    const elf::FunctionInfo* fn = debug.function_at(f.address);
    const std::string* label = fn && fn->entry_address == f.address ? nullptr
                                                                    : debug.label_at(f.address);
    if (label) {
      f.name = *label;
      const elf::SourcePosition pos = debug.line_at(f.address);
      f.file = pos.file;
      f.line = pos.line;
      label_frames.emplace_back(f.address, i);
    } else if (fn) {
      f.name = fn->entry_address == f.address
                   ? fn->name
                   : fn->name + "+" + std::to_string(f.address - fn->entry_address);
      f.file = fn->declaration.file;
      f.line = fn->declaration.line;
    }
    frame_of_entry.emplace(f.address, i);
  }
  std::sort(label_frames.begin(), label_frames.end());
  auto frame_for = [&](uint32_t address) -> uint32_t {
    const elf::FunctionInfo* fn = debug.function_at(address);
    const uint32_t entry = fn ? fn->entry_address : address;
    // The last label frame in (entry, address] of the same function owns the address.
    auto it = std::upper_bound(label_frames.begin(), label_frames.end(),
                               std::make_pair(address, UINT32_MAX));
    if (fn && it != label_frames.begin() && std::prev(it)->first > entry) return std::prev(it)->second;
    auto [found, inserted] =
        frame_of_entry.try_emplace(entry, static_cast<uint32_t>(set.frames.size()));
    if (inserted) {
      Frame f;
      f.address = entry;
      f.name = fn ? fn->name : std::to_string(entry);
      if (fn) {
        f.file = fn->declaration.file;
        f.line = fn->declaration.line;
      }
      set.frames.push_back(std::move(f));
    }
    return found->second;
  };
  for (Profile& p : set.profiles) {
    for (AddressCost& a : p.addresses) {
      const elf::SourcePosition pos = debug.line_at(a.address);
      a.file = pos.file;
      a.line = pos.line;
      a.frame = frame_for(a.address);
    }
    for (CallEdge& e : p.edges) {
      const elf::SourcePosition pos = debug.line_at(e.call_address);
      e.call_file = pos.file;
      e.call_line = pos.line;
    }
  }
}

}  // namespace fathom::profile
