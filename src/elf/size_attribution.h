#pragma once
// Which part of the firmware takes which flash and RAM: the input sections listed in a GNU ld
// map file (-Wl,-Map), grouped into components, measured against the linked image's own section
// sizes so that the components always add up to the image.
//
// Components: "harness" (firmware/harness), "startup" (firmware/boards), "workloads"
// (firmware/workloads), one per library archive (libmbedtls.a -> "mbedtls"; the library's glue
// in firmware/libs/<name> counts to it), "libc" (newlib/nano/picolibc and its syscall stubs,
// crt0), "libgcc" (libgcc.a and GCC's crt*.o), "libm", and "other": objects that match none of
// these, plus every byte the map does not attribute (alignment fill, linker-generated code).
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "elf/elf_image.h"
#include "util/error.h"

namespace fathom::elf {

// Bytes of one kind of memory use. Flash holds .text, .rodata and the initial values of .data;
// RAM holds .data and .bss.
struct SizeBreakdown {
  uint64_t text_bytes = 0;    // code, including the vector table
  uint64_t rodata_bytes = 0;  // constants kept in flash (also .ARM.exidx and the like)
  uint64_t data_bytes = 0;    // initialised variables: RAM, plus their initial values in flash
  uint64_t bss_bytes = 0;     // zero-initialised RAM

  uint64_t flash_bytes() const { return text_bytes + rodata_bytes + data_bytes; }
  uint64_t ram_bytes() const { return data_bytes + bss_bytes; }
  SizeBreakdown& operator+=(const SizeBreakdown& o);
  friend bool operator==(const SizeBreakdown&, const SizeBreakdown&) = default;
};

struct ComponentSize {
  std::string component;
  SizeBreakdown size;
};

struct SizeAttribution {
  // Components with at least one byte, by flash bytes (largest first), then RAM, then name.
  std::vector<ComponentSize> components;
  SizeBreakdown total;               // = the image's allocated sections = sum of components
  uint64_t stack_reserve_bytes = 0;  // the .stack section: RAM kept for the main stack
  uint64_t heap_reserve_bytes = 0;   // __heap_start..__heap_end (or a .heap section)

  // The component named `name`, or nullptr.
  const ComponentSize* find(const std::string& name) const;
};

enum class SectionKind { kText, kRodata, kData, kBss };

// An allocated output section of the image, as attribution sees it.
struct OutputSection {
  std::string name;
  uint64_t size_bytes = 0;
  SectionKind kind = SectionKind::kRodata;
};

// One input section from the map file's memory map.
struct MapInputSection {
  std::string output_section;  // the output section it was placed in (".text")
  std::string name;            // the input section (".text.fathom_rec_end", "COMMON")
  uint64_t address = 0;
  uint64_t size_bytes = 0;
  std::string file;            // "obj/x.o", "/path/libfoo.a(member.o)"
  size_t line = 0;             // 1-based line in the map file
};

// The allocated sections of `image` that take flash or RAM, classified: executable -> text,
// no file data -> bss, copied from flash to RAM at reset (VMA != LMA) -> data, else rodata.
// The stack and heap reserves (.stack, .heap) and empty sections are left out.
std::vector<OutputSection> output_sections(const ElfImage& image);

// The input sections of a GNU ld map file's "Linker script and memory map" part, in file order.
// Lines of other shapes are ignored; a number that is not valid hexadecimal is an error naming
// `display_name` and the line. An error too if the part is missing (not a map file).
util::Result<std::vector<MapInputSection>> parse_map_file(std::string_view text,
                                                          const std::string& display_name);

// The component an input file belongs to (see the top of this file). `libraries` are the
// library names of the archives in the same map, used to tell whose glue a firmware/libs object
// is.
std::string component_of(const std::string& file, const std::vector<std::string>& libraries);

// Attributes every byte of `sections` to a component using the map file text `map_text`.
// An error if the map puts more bytes into a section than the image has (a map of another
// link), or on a malformed map. Reserves are left 0: see attribute_image_size.
util::Result<SizeAttribution> attribute_sizes(std::string_view map_text,
                                              const std::string& display_name,
                                              const std::vector<OutputSection>& sections);

// Reads the map file at `map_path` and attributes the sections of `image` (the same link),
// including the stack and heap reserves.
util::Result<SizeAttribution> attribute_image_size(const std::filesystem::path& map_path,
                                                   const ElfImage& image);

}  // namespace fathom::elf
