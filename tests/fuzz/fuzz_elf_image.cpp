// Fuzz target: an ELF image, the loader's untrusted input. Parses the bytes with
// elf::ElfImage::parse, then asks what the pipeline asks of a loaded image (symbols, functions,
// code ranges, labels, memory reads, the harness operation registry) and opens it as
// elf::DebugInfo (libdw) through an in-memory file.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "elf/debug_info.h"
#include "elf/elf_image.h"
#include "elf/harness_operations.h"
#include "fuzz_check.h"

namespace {

constexpr const char* kName = "fuzz.elf";

// The addresses worth asking about: every symbol's start, middle and end, every section's and
// segment's start, the entry point.
std::vector<uint32_t> probe_addresses(const fathom::elf::ElfImage& image) {
  std::vector<uint32_t> out = {image.entry(), 0, 0xffffffffu};
  for (const auto& s : image.symbols()) {
    out.push_back(s.address);
    out.push_back(s.address + s.size_bytes / 2);
    out.push_back(s.address + s.size_bytes);
  }
  for (const auto& s : image.sections()) out.push_back(s.address);
  for (const auto& s : image.segments()) out.push_back(s.virtual_address);
  if (out.size() > 256) out.resize(256);
  return out;
}

void exercise_image(const fathom::elf::ElfImage& image) {
  for (const auto& segment : image.segments())
    FATHOM_FUZZ_CHECK(segment.data.size() <= segment.memory_size_bytes);
  const auto ranges = image.thumb_code_ranges();
  for (size_t i = 0; i < ranges.size(); ++i) {
    FATHOM_FUZZ_CHECK(ranges[i].begin < ranges[i].end);
    if (i > 0) FATHOM_FUZZ_CHECK(ranges[i - 1].end <= ranges[i].begin);  // sorted, disjoint
  }
  image.local_code_labels();
  for (const auto& s : image.symbols()) {
    const auto* found = image.find_symbol(s.name);
    FATHOM_FUZZ_CHECK(found != nullptr && found->name == s.name);
  }
  image.find_symbol("__start_fathom_ops");
  for (uint32_t address : probe_addresses(image)) {
    if (const auto* f = image.function_at(address)) FATHOM_FUZZ_CHECK(f->address <= address);
    FATHOM_FUZZ_CHECK(!image.describe_address(address).empty());
    if (auto bytes = image.read(address, 16)) FATHOM_FUZZ_CHECK(bytes->size() == 16);
    image.read_string(address, 64);
  }
  if (auto entries = fathom::elf::harness_operation_entries(image))
    for (const auto& e : *entries) FATHOM_FUZZ_CHECK(e.name.size() < 64);
  else
    FATHOM_FUZZ_CHECK(!entries.error().message.empty());
  auto names = fathom::elf::harness_operations(image);
  if (!names) FATHOM_FUZZ_CHECK(!names.error().message.empty());
}

// DebugInfo reads a path: give it the bytes as an anonymous in-memory file.
void exercise_debug_info(const uint8_t* data, size_t size,
                         const std::vector<uint32_t>& addresses) {
  const int fd = memfd_create("fuzz_elf", MFD_CLOEXEC);
  if (fd < 0) return;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  if (written == size) {
    auto info = fathom::elf::DebugInfo::open("/proc/self/fd/" + std::to_string(fd));
    if (info) {
      info->functions();
      info->has_inlined_code_of("memcpy");
      for (uint32_t address : addresses) {
        if (const auto* f = info->function_at(address)) FATHOM_FUZZ_CHECK(!f->name.empty());
        info->label_at(address);
        info->line_at(address);
        info->inline_chain(address);
      }
    } else {
      FATHOM_FUZZ_CHECK(!info.error().message.empty());
    }
  }
  close(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto image = fathom::elf::ElfImage::parse(std::vector<uint8_t>(data, data + size), kName);
  if (!image) {
    FATHOM_FUZZ_CHECK(image.error().message.starts_with("'fuzz.elf' is not a usable"));
    return 0;
  }
  exercise_image(*image);
  exercise_debug_info(data, size, probe_addresses(*image));
  return 0;
}
