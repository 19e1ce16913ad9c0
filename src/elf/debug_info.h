#pragma once
// Symbols and source positions of a linked 32-bit ARM image: which function an address belongs
// to, which source line it came from, and which inlined calls it sits in. The symbol table comes
// from ElfImage (bounds-checked); the source information from the image's DWARF, read with
// libdw (elfutils). An image without DWARF still answers function_at() from its symbol table.
//
// Everything is indexed once in open() (the function list, one merged line table, the inlined
// ranges of every function), so each query is a binary search plus a small scan; results are
// also cached per address because the profiler asks about every distinct address it saw.
// Line sequences and inlined ranges of functions that --gc-sections dropped (the linker moves
// them to address 0) are left out, so they never shadow live code.
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/error.h"

namespace fathom::elf {

// A position in the sources. `file` is empty and `line` 0 when unknown.
struct SourcePosition {
  std::string file;
  uint32_t line = 0;

  bool known() const { return !file.empty() && line != 0; }
  friend bool operator==(const SourcePosition&, const SourcePosition&) = default;
};

// A function symbol (STT_FUNC) of the image.
struct FunctionInfo {
  std::string name;              // the symbol name (e.g. "gcm_prepare.part.0" for a clone)
  uint32_t entry_address = 0;    // Thumb bit cleared
  uint32_t size_bytes = 0;       // st_size; 0 for assembly without .size
  // Where it is declared: DW_AT_decl_file/decl_line of its DWARF subprogram (following
  // DW_AT_abstract_origin / DW_AT_specification), else the line of its entry address;
  // unknown without DWARF.
  SourcePosition declaration;
};

// One inlined call that an address lies in.
struct InlineFrame {
  std::string function;   // the inlined function's name ("" if DWARF has none)
  SourcePosition call_site;  // DW_AT_call_file/call_line: where it was inlined into its caller
};

class DebugInfo {
 public:
  // Reads `elf`. Errors: a missing or unreadable file, not an ELF file, not a 32-bit
  // little-endian ARM executable, or DWARF that libdw cannot parse. An image without DWARF is
  // not an error: has_dwarf() is then false and only the symbol table is used.
  static util::Result<DebugInfo> open(const std::filesystem::path& elf);

  DebugInfo(DebugInfo&&) noexcept;
  DebugInfo& operator=(DebugInfo&&) noexcept;
  ~DebugInfo();

  bool has_dwarf() const { return has_dwarf_; }
  // Every function symbol, sorted by entry address; aliases (several symbols at one address
  // and size) appear once, under the name that sorts first among the global ones.
  const std::vector<FunctionInfo>& functions() const { return functions_; }

  // The function whose [entry, entry + size) contains `address`; failing that, the nearest
  // size-0 function symbol (assembly without .size) at or below `address`, if `address` lies
  // in an executable section. nullptr if none. The pointer lives as long as this object.
  const FunctionInfo* function_at(uint32_t address);
  // The name local code carries at exactly `address` (ElfImage::local_code_labels: a local
  // function symbol, an assembly label without .type, a named `$t.` mapping symbol), or
  // nullptr. What names a call to a label inside an assembly function, which function_at()
  // would give as the enclosing global symbol plus an offset.
  const std::string* label_at(uint32_t address) const;
  // The file and line `address` was compiled from (the line-table row covering it), or
  // {"", 0} when unknown (no DWARF, no row, or a row with line 0).
  SourcePosition line_at(uint32_t address);
  // The inlined calls `address` lies in, innermost first; empty when it is not in inlined
  // code or the image has no DWARF.
  std::vector<InlineFrame> inline_chain(uint32_t address);
  // True if code inlined from the function named `function` (a DW_TAG_inlined_subroutine whose
  // abstract origin has that DW_AT_name) lies in a live function of the image, i.e. not in code
  // that --gc-sections dropped. False without DWARF. A function can be inlined at -Os and
  // have no symbol of its own while its code is in the image.
  bool has_inlined_code_of(std::string_view function) const;

  // File names as reported: relative to the compilation directory of the unit that names
  // them when they lie below it, else the full path; two different files never share a name.

  struct Index;  // the DWARF tables; defined in debug_info.cpp

 private:
  DebugInfo();

  bool has_dwarf_ = false;
  std::vector<FunctionInfo> functions_;
  std::map<uint32_t, std::string> labels_;  // ElfImage::local_code_labels by address
  // [start, end) of every allocated executable section, sorted.
  std::vector<std::pair<uint32_t, uint32_t>> code_ranges_;
  std::unique_ptr<Index> index_;
  std::unordered_map<uint32_t, const FunctionInfo*> function_cache_;
  std::unordered_map<uint32_t, SourcePosition> line_cache_;
  std::unordered_map<uint32_t, std::vector<InlineFrame>> inline_cache_;
};

}  // namespace fathom::elf
