#include "elf/harness_operations.h"

#include <fmt/core.h>

namespace fathom::elf {
namespace {

std::optional<uint32_t> read_u32(const ElfImage& image, uint32_t address) {
  auto b = image.read(address, 4);
  if (!b) return std::nullopt;
  return static_cast<uint32_t>((*b)[0]) | (static_cast<uint32_t>((*b)[1]) << 8) |
         (static_cast<uint32_t>((*b)[2]) << 16) | (static_cast<uint32_t>((*b)[3]) << 24);
}

}  // namespace

util::Result<std::vector<std::string>> harness_operations(const ElfImage& image) {
  auto entries = harness_operation_entries(image);
  if (!entries) return tl::unexpected(entries.error());
  std::vector<std::string> names;
  for (const auto& e : *entries) names.push_back(e.name);
  return names;
}

util::Result<std::vector<OperationEntry>> harness_operation_entries(const ElfImage& image) {
  const Symbol* start = image.find_symbol("__start_fathom_ops");
  const Symbol* stop = image.find_symbol("__stop_fathom_ops");
  if (!start || !stop || stop->address < start->address || (stop->address - start->address) % 4)
    return util::fail("the image has no fathom operation registry (__start_fathom_ops)");
  std::vector<OperationEntry> entries;
  for (uint32_t p = start->address; p < stop->address; p += 4) {
    auto op = read_u32(image, p);
    auto name_ptr = op ? read_u32(image, *op) : std::nullopt;
    auto name = name_ptr ? image.read_string(*name_ptr, 64) : std::nullopt;
    // struct fathom_op: name, setup, kat, run, teardown (firmware/harness/fathom_harness.h).
    auto run = op ? read_u32(image, *op + 12) : std::nullopt;
    if (!name || !run)
      return util::fail(fmt::format("damaged operation registry entry at {:#010x}", p));
    entries.push_back({*name, *run & ~1u});
  }
  return entries;
}

}  // namespace fathom::elf
