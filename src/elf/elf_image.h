#pragma once
// A 32-bit little-endian ARM executable, read with libelf from untrusted bytes: every offset and
// size in the file is checked against the file before use.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "util/error.h"

namespace fathom::elf {

// Bytes to place in target memory (a PT_LOAD segment, at its load address).
struct LoadSegment {
  uint32_t load_address = 0;       // LMA (p_paddr): where the bytes live at reset
  uint32_t virtual_address = 0;    // VMA (p_vaddr)
  uint32_t memory_size_bytes = 0;  // p_memsz; bytes past the file data are zero
  bool executable = false;
  uint64_t file_offset = 0;        // p_offset: where `data` starts in the file
  std::vector<uint8_t> data;       // p_filesz bytes
};

struct Symbol {
  std::string name;
  uint32_t address = 0;  // with the Thumb bit cleared for functions
  uint32_t size_bytes = 0;
  bool is_function = false;
  bool is_global = false;
  bool untyped = false;  // STT_NOTYPE: a linker-script symbol, or an assembly label without .type
};

struct Section {
  std::string name;
  uint32_t address = 0;
  uint32_t size_bytes = 0;
  bool allocated = false;   // SHF_ALLOC
  bool executable = false;  // SHF_EXECINSTR
  bool writable = false;    // SHF_WRITE
  bool has_file_data = false;  // not SHT_NOBITS
};

// [begin, end) of Thumb instructions (no literal pools), from the AAELF mapping symbols.
struct CodeRange {
  uint32_t begin = 0;
  uint32_t end = 0;
};

class ElfImage {
 public:
  // Parses `bytes` (the whole file); `display_name` names it in error messages.
  static util::Result<ElfImage> parse(std::vector<uint8_t> bytes, const std::string& display_name);
  static util::Result<ElfImage> load(const std::filesystem::path& path);

  uint32_t entry() const { return entry_; }
  const std::vector<LoadSegment>& segments() const { return segments_; }
  const std::vector<Symbol>& symbols() const { return symbols_; }  // sorted by address
  const std::vector<Section>& sections() const { return sections_; }
  // The raw contents of the .ARM.attributes section (elf/build_attributes.h), empty if none.
  const std::vector<uint8_t>& arm_attributes() const { return arm_attributes_; }

  // The symbol named `name` (functions and objects), if present.
  const Symbol* find_symbol(const std::string& name) const;
  // The function whose [address, address+size) contains `address`, or the nearest preceding
  // function symbol when sizes are missing; nullptr if none.
  const Symbol* function_at(uint32_t address) const;
  // The Thumb code in executable sections, from the $t/$d mapping symbols; for a section
  // without them, the extents of its sized function symbols. Sorted, non-overlapping.
  std::vector<CodeRange> thumb_code_ranges() const;

  // The names that local code carries at a given address, for call targets inside assembly
  // functions (a `bl` to a label of the same file): local STT_FUNC symbols, local untyped
  // symbols (labels without .type; not ".L" ones) and `$t.<name>` mapping symbols whose name is
  // not a number, each at an address inside Thumb code (thumb_code_ranges). Sorted by address.
  std::vector<Symbol> local_code_labels() const;

  // "name+0x12" or "0x00001234" when no function contains `address`.
  std::string describe_address(uint32_t address) const;

  // `size` bytes of initialised memory at virtual address `address`, from the loadable
  // segments; nullopt if any byte lies outside their file data.
  std::optional<std::vector<uint8_t>> read(uint32_t address, uint32_t size) const;
  // The NUL-terminated string at `address` (at most `max_bytes`), or nullopt.
  std::optional<std::string> read_string(uint32_t address, uint32_t max_bytes = 256) const;

 private:
  uint32_t entry_ = 0;
  std::vector<LoadSegment> segments_;
  std::vector<Symbol> symbols_;
  struct MappingSymbol {
    uint32_t address = 0;
    uint32_t section = 0;
    char kind = 'd';  // 't', 'a' or 'd'
    std::string name;  // what follows "$t." etc., "" for a bare "$t"
  };
  std::vector<MappingSymbol> mapping_symbols_;  // sorted by address
  std::vector<Section> sections_;
  std::vector<uint8_t> arm_attributes_;
};

}  // namespace fathom::elf
