#include "elf/debug_info.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <gelf.h>
#include <unistd.h>

#include <algorithm>
#include <limits>
#include <span>
#include <map>
#include <set>
#include <unordered_map>

#include "elf/elf_image.h"

namespace fathom::elf {
namespace {

constexpr uint32_t kNoFile = std::numeric_limits<uint32_t>::max();
// Deeper DIE nesting than this is not produced by any compiler; stop there so that a crafted
// file cannot exhaust the stack.
constexpr int kMaxDieDepth = 256;

struct LineRow {
  uint32_t address = 0;
  uint32_t file = kNoFile;
  uint32_t line = 0;
  bool end_sequence = false;
};

struct InlineRange {
  uint32_t low = 0;   // [low, high)
  uint32_t high = 0;
  int depth = 0;      // nesting of inlined calls; deeper = more inner
  std::string function;
  uint32_t call_file = kNoFile;
  uint32_t call_line = 0;
};

struct Declaration {
  uint32_t file = kNoFile;
  uint32_t line = 0;
};

class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() {
    if (fd_ >= 0) ::close(fd_);
  }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

struct DwarfCloser {
  void operator()(Dwarf* dw) const { dwarf_end(dw); }
};

}  // namespace

struct DebugInfo::Index {
  std::vector<std::string> files;       // reported names, by file id
  std::vector<LineRow> rows;            // every kept line-table row, sorted by address
  std::vector<std::vector<InlineRange>> inlined;  // per entry of functions_

  // While building: the full path of each file id and the directory it is reported against.
  std::vector<std::pair<std::string, std::string>> full_paths;
  std::unordered_map<std::string, uint32_t> file_ids;

  uint32_t intern(const char* path, const std::string& comp_dir) {
    if (!path || !*path) return kNoFile;
    auto [it, inserted] = file_ids.try_emplace(path, static_cast<uint32_t>(full_paths.size()));
    if (inserted) full_paths.emplace_back(path, comp_dir);
    return it->second;
  }

  // Short names: relative to the compilation directory when below it, unless two files would
  // then share a name.
  void finish_file_names() {
    files.clear();
    std::map<std::string, std::set<std::string>> sources;  // short name -> full paths
    for (auto& [full, raw_dir] : full_paths) {
      // "/b/gcc/build/libgcc/../../libgcc/x.c" -> "/b/gcc/libgcc/x.c"
      full = std::filesystem::path(full).lexically_normal().string();
      const std::string dir = std::filesystem::path(raw_dir).lexically_normal().string();
      std::string name = full;
      if (!dir.empty() && dir.back() == '/' && full.size() > dir.size() &&
          full.compare(0, dir.size(), dir) == 0)
        name = full.substr(dir.size());
      else if (!dir.empty() && full.size() > dir.size() + 1 &&
               full.compare(0, dir.size(), dir) == 0 && full[dir.size()] == '/')
        name = full.substr(dir.size() + 1);
      files.push_back(name);
      sources[name].insert(full);
    }
    for (size_t i = 0; i < files.size(); ++i)
      if (sources[files[i]].size() > 1) files[i] = full_paths[i].first;
    full_paths.clear();
    file_ids.clear();
  }

  SourcePosition position(uint32_t file, uint32_t line) const {
    if (file >= files.size() || line == 0) return {};
    return {files[file], line};
  }
};

DebugInfo::DebugInfo() : index_(std::make_unique<Index>()) {}
DebugInfo::DebugInfo(DebugInfo&&) noexcept = default;
DebugInfo& DebugInfo::operator=(DebugInfo&&) noexcept = default;
DebugInfo::~DebugInfo() = default;

namespace {

// The index into `functions` (sorted by entry) of the function containing `address`, or -1.
// A size-0 symbol (assembly without .size) extends to the next symbol, within code.
ptrdiff_t find_function(const std::vector<FunctionInfo>& functions,
                        const std::vector<std::pair<uint32_t, uint32_t>>& code_ranges,
                        uint32_t address) {
  auto it = std::upper_bound(
      functions.begin(), functions.end(), address,
      [](uint32_t a, const FunctionInfo& f) { return a < f.entry_address; });
  if (it == functions.begin()) return -1;
  --it;
  auto contains = [address](const FunctionInfo& f) {
    return uint64_t{address} < uint64_t{f.entry_address} + f.size_bytes;
  };
  if (it->size_bytes != 0) return contains(*it) ? it - functions.begin() : -1;
  // A size-0 label (a global label inside assembly) yields to a sized function around it.
  auto sized = it;
  for (int steps = 0; sized != functions.begin() && sized->size_bytes == 0 && steps < 64; ++steps)
    --sized;
  if (sized->size_bytes != 0 && contains(*sized)) return sized - functions.begin();
  for (const auto& [start, end] : code_ranges)
    if (address >= start && address < end) return it - functions.begin();
  return -1;
}

// The function symbols of `image`, sorted, one entry per (address, size).
std::vector<FunctionInfo> function_list(const ElfImage& image) {
  std::vector<const Symbol*> symbols;
  for (const auto& s : image.symbols())
    if (s.is_function) symbols.push_back(&s);
  std::sort(symbols.begin(), symbols.end(), [](const Symbol* a, const Symbol* b) {
    if (a->address != b->address) return a->address < b->address;
    if (a->size_bytes != b->size_bytes) return a->size_bytes < b->size_bytes;
    if (a->is_global != b->is_global) return a->is_global;
    return a->name < b->name;
  });
  std::vector<FunctionInfo> out;
  for (const Symbol* s : symbols) {
    if (!out.empty() && out.back().entry_address == s->address &&
        out.back().size_bytes == s->size_bytes)
      continue;  // an alias of the one kept
    FunctionInfo f;
    f.name = s->name;
    f.entry_address = s->address;
    f.size_bytes = s->size_bytes;
    out.push_back(std::move(f));
  }
  return out;
}

// Little-endian reads that never run past the end: a read out of range marks the reader
// failed and moves it to the end, so every loop over it terminates.
class ByteReader {
 public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ >= bytes_.size(); }
  size_t position() const { return pos_; }
  size_t remaining() const { return bytes_.size() - pos_; }

  uint64_t fixed(size_t n) {
    if (n > 8 || remaining() < n) return failed();
    uint64_t v = 0;
    for (size_t i = 0; i < n; ++i) v |= uint64_t{bytes_[pos_ + i]} << (8 * i);
    pos_ += n;
    return v;
  }
  uint8_t u8() { return static_cast<uint8_t>(fixed(1)); }
  uint64_t uleb() {
    uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (at_end()) return failed();
      const uint8_t b = bytes_[pos_++];
      if (shift < 64) v |= uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return v;
    }
  }
  int64_t sleb() {
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    do {
      if (at_end()) return static_cast<int64_t>(failed());
      b = bytes_[pos_++];
      if (shift < 64) v |= uint64_t{b & 0x7fu} << shift;
      shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) v |= ~uint64_t{0} << shift;
    return static_cast<int64_t>(v);
  }
  void skip_to(size_t position) {
    if (position < pos_ || position > bytes_.size()) failed();
    else pos_ = position;
  }

 private:
  uint64_t failed() {
    ok_ = false;
    pos_ = bytes_.size();
    return 0;
  }

  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// The state of the line-number state machine when it appends a row (DWARF 5, 6.2.2).
struct LineState {
  uint64_t address = 0;
  uint64_t file = 1;
  int64_t line = 1;
  bool end_sequence = false;
};

// Runs the line-number program of the unit that starts at `unit` and calls `emit` for every
// row, in program order, so that each sequence arrives whole and ends with its end_sequence
// row. A malformed header or program ends decoding early (the rows so far were emitted).
template <typename Emit>
void decode_line_program(std::span<const uint8_t> unit, Emit&& emit) {
  ByteReader r(unit);
  uint64_t length = r.fixed(4);
  const bool dwarf64 = length == 0xffffffffu;
  if (dwarf64) length = r.fixed(8);
  if (!r.ok() || length > r.remaining()) return;
  ByteReader h(unit.subspan(r.position(), length));
  const uint64_t version = h.fixed(2);
  if (version < 2 || version > 5) return;
  if (version >= 5) {
    h.u8();  // address_size
    h.u8();  // segment_selector_size
  }
  const uint64_t header_length = h.fixed(dwarf64 ? 8 : 4);
  if (!h.ok() || header_length > h.remaining()) return;
  const size_t program_start = h.position() + header_length;
  const uint8_t min_instruction_length = h.u8();
  if (version >= 4) h.u8();  // maximum_operations_per_instruction: 1 outside VLIW targets
  h.u8();                    // default_is_stmt
  const auto line_base = static_cast<int8_t>(h.u8());
  const uint8_t line_range = h.u8();
  const uint8_t opcode_base = h.u8();
  std::vector<uint8_t> argument_counts;
  for (int i = 1; i < opcode_base; ++i) argument_counts.push_back(h.u8());
  h.skip_to(program_start);
  if (!h.ok() || line_range == 0 || opcode_base == 0) return;

  LineState st;
  while (!h.at_end()) {
    const uint8_t op = h.u8();
    if (op >= opcode_base) {  // special opcode
      const unsigned adjusted = op - opcode_base;
      st.address += uint64_t{adjusted / line_range} * min_instruction_length;
      st.line += line_base + static_cast<int>(adjusted % line_range);
      emit(st);
    } else if (op == 0) {  // extended opcode
      const uint64_t size = h.uleb();
      if (size == 0 || size > h.remaining()) break;
      const size_t end = h.position() + size;
      switch (h.u8()) {
        case DW_LNE_end_sequence:
          st.end_sequence = true;
          emit(st);
          st = LineState{};
          break;
        case DW_LNE_set_address:
          st.address = h.fixed(std::min<uint64_t>(size - 1, 8));
          break;
        default:  // define_file (DWARF < 5), set_discriminator, vendor extensions
          break;
      }
      h.skip_to(end);
    } else {
      switch (op) {
        case DW_LNS_copy: emit(st); break;
        case DW_LNS_advance_pc: st.address += h.uleb() * min_instruction_length; break;
        case DW_LNS_advance_line: st.line += h.sleb(); break;
        case DW_LNS_set_file: st.file = h.uleb(); break;
        case DW_LNS_const_add_pc:
          st.address += uint64_t{(255u - opcode_base) / line_range} * min_instruction_length;
          break;
        case DW_LNS_fixed_advance_pc: st.address += h.fixed(2); break;
        default:  // set_column, set_isa and unknown opcodes: skip their ULEB128 operands
          for (uint8_t i = 0; i < argument_counts[op - 1]; ++i) h.uleb();
          break;
      }
    }
  }
}

uint32_t attribute_udata(Dwarf_Die* die, unsigned int name) {
  Dwarf_Attribute attr;
  Dwarf_Word value = 0;
  if (!dwarf_attr(die, name, &attr) || dwarf_formudata(&attr, &value) != 0) return 0;
  return value > std::numeric_limits<uint32_t>::max() ? 0 : static_cast<uint32_t>(value);
}

// Reads one compilation unit into the index.
class UnitReader {
 public:
  UnitReader(DebugInfo::Index& index, const std::vector<FunctionInfo>& functions,
             const std::vector<std::pair<uint32_t, uint32_t>>& code_ranges,
             std::map<uint32_t, Declaration>& declarations, std::span<const uint8_t> debug_line)
      : index_(index), functions_(functions), code_ranges_(code_ranges),
        declarations_(declarations), debug_line_(debug_line) {}

  void read(Dwarf_Die* cudie) {
    Dwarf_Attribute attr;
    const char* dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &attr));
    comp_dir_ = dir ? dir : "";
    files_ = nullptr;
    file_count_ = 0;
    if (dwarf_getsrcfiles(cudie, &files_, &file_count_) != 0) {
      files_ = nullptr;
      file_count_ = 0;
    }
    read_lines(cudie);
    Dwarf_Die child;
    if (dwarf_child(cudie, &child) == 0) read_children(&child, 0, 0);
  }

 private:
  bool in_function(uint32_t address) const {
    if (functions_.empty()) {
      for (const auto& [start, end] : code_ranges_)
        if (address >= start && address < end) return true;
      return false;
    }
    return find_function(functions_, code_ranges_, address) >= 0;
  }

  // Keeps each line sequence whose first address lies in a function of the image. The linker
  // relocates the sequences of functions that --gc-sections dropped to address 0, where they
  // would shadow the real code there. libdw's dwarf_getsrclines merges all sequences of a unit
  // into one address-sorted list, losing which rows belong together, so the unit's line
  // program is decoded here (DWARF 2-5, section 6.2), with libdw's file table for the names.
  void read_lines(Dwarf_Die* cudie) {
    Dwarf_Attribute attr;
    Dwarf_Word offset = 0;
    if (!dwarf_attr(cudie, DW_AT_stmt_list, &attr) || dwarf_formudata(&attr, &offset) != 0)
      return;
    if (offset >= debug_line_.size()) return;
    std::unordered_map<uint64_t, uint32_t> ids;  // file index -> file id
    decode_line_program(debug_line_.subspan(offset), [&](const LineState& st) {
      LineRow row;
      row.address = static_cast<uint32_t>(std::min<uint64_t>(st.address, 0xffffffffu));
      row.line = st.line > 0 && st.line <= std::numeric_limits<uint32_t>::max()
                     ? static_cast<uint32_t>(st.line)
                     : 0;
      row.end_sequence = st.end_sequence;
      if (!st.end_sequence) {
        auto [it, inserted] = ids.try_emplace(st.file, kNoFile);
        if (inserted && st.file <= std::numeric_limits<uint32_t>::max())
          it->second = file_of_index(static_cast<uint32_t>(st.file));
        row.file = it->second;
      }
      // A row followed by another at the same address covers no bytes: the later one holds.
      if (!sequence_.empty() && sequence_.back().address == row.address) sequence_.pop_back();
      sequence_.push_back(row);
      if (st.end_sequence) {
        if (sequence_.size() > 1 && in_function(sequence_.front().address))
          index_.rows.insert(index_.rows.end(), sequence_.begin(), sequence_.end());
        sequence_.clear();
      }
    });
    sequence_.clear();
  }

  uint32_t file_of_index(uint32_t idx) {
    if (!files_ || idx >= file_count_) return kNoFile;
    return index_.intern(dwarf_filesrc(files_, idx, nullptr, nullptr), comp_dir_);
  }

  void read_children(Dwarf_Die* die, int depth, int inline_depth) {
    if (depth > kMaxDieDepth) return;
    do {
      const int tag = dwarf_tag(die);
      int child_inline_depth = inline_depth;
      if (tag == DW_TAG_subprogram) {
        read_subprogram(die);
      } else if (tag == DW_TAG_inlined_subroutine) {
        read_inlined(die, inline_depth);
        child_inline_depth = inline_depth + 1;
      }
      Dwarf_Die child;
      if (dwarf_haschildren(die) && dwarf_child(die, &child) == 0)
        read_children(&child, depth + 1, child_inline_depth);
    } while (dwarf_siblingof(die, die) == 0);
  }

  void read_subprogram(Dwarf_Die* die) {
    Dwarf_Addr low = 0;
    if (dwarf_lowpc(die, &low) != 0) {
      Dwarf_Addr base = 0, start = 0, end = 0;
      if (dwarf_ranges(die, 0, &base, &start, &end) <= 0) return;
      low = start;
    }
    if (low > std::numeric_limits<uint32_t>::max()) return;
    int line = 0;
    const char* file = dwarf_decl_file(die);
    if (!file || dwarf_decl_line(die, &line) != 0 || line <= 0) return;
    declarations_.try_emplace(static_cast<uint32_t>(low),
                              Declaration{index_.intern(file, comp_dir_),
                                          static_cast<uint32_t>(line)});
  }

  void read_inlined(Dwarf_Die* die, int inline_depth) {
    const char* name = dwarf_diename(die);
    const uint32_t call_file = file_of_index(attribute_udata(die, DW_AT_call_file));
    const uint32_t call_line = attribute_udata(die, DW_AT_call_line);
    Dwarf_Addr base = 0, start = 0, end = 0;
    ptrdiff_t offset = 0;
    while ((offset = dwarf_ranges(die, offset, &base, &start, &end)) > 0) {
      if (end <= start || end > (uint64_t{1} << 32)) continue;
      const ptrdiff_t f = find_function(functions_, code_ranges_, static_cast<uint32_t>(start));
      if (f < 0) continue;  // a dropped function's code
      InlineRange r;
      r.low = static_cast<uint32_t>(start);
      r.high = static_cast<uint32_t>(std::min<uint64_t>(end, 0xffffffffu));
      r.depth = inline_depth;
      r.function = name ? name : "";
      r.call_file = call_file;
      r.call_line = call_line;
      index_.inlined[static_cast<size_t>(f)].push_back(std::move(r));
    }
  }

  DebugInfo::Index& index_;
  const std::vector<FunctionInfo>& functions_;
  const std::vector<std::pair<uint32_t, uint32_t>>& code_ranges_;
  std::map<uint32_t, Declaration>& declarations_;
  std::span<const uint8_t> debug_line_;  // the whole .debug_line section
  std::vector<LineRow> sequence_;        // rows of the sequence being read
  std::string comp_dir_;
  Dwarf_Files* files_ = nullptr;
  size_t file_count_ = 0;
};

// The contents of the section named `name` of `elf` (decompressed if need be), or empty.
// The bytes belong to `elf`.
std::span<const uint8_t> section_bytes(Elf* elf, const char* name) {
  size_t names = 0;
  if (!elf || elf_getshdrstrndx(elf, &names) != 0) return {};
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    const char* n = elf_strptr(elf, names, sh.sh_name);
    if (!n || std::string_view(n) != name || sh.sh_type == SHT_NOBITS) continue;
    if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0) return {};
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data || !data->d_buf) return {};
    return {static_cast<const uint8_t*>(data->d_buf), data->d_size};
  }
  return {};
}

}  // namespace

util::Result<DebugInfo> DebugInfo::open(const std::filesystem::path& path) {
  auto image = ElfImage::load(path);
  if (!image) return tl::unexpected(image.error());

  DebugInfo info;
  info.functions_ = function_list(*image);
  for (const Symbol& label : image->local_code_labels())
    info.labels_.emplace(label.address, label.name);  // the first name at an address
  bool has_debug_info = false;
  for (const auto& s : image->sections()) {
    if (s.allocated && s.executable && s.size_bytes > 0)
      info.code_ranges_.emplace_back(s.address, static_cast<uint32_t>(std::min<uint64_t>(
                                                    uint64_t{s.address} + s.size_bytes,
                                                    0xffffffffu)));
    if (s.name == ".debug_info" && s.size_bytes > 0) has_debug_info = true;
  }
  std::sort(info.code_ranges_.begin(), info.code_ranges_.end());
  Index& index = *info.index_;
  index.inlined.resize(info.functions_.size());
  if (!has_debug_info) return info;

  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return util::fail(fmt::format("cannot open ELF file '{}'", path.string()));
  FdCloser fd_closer(fd);
  std::unique_ptr<Dwarf, DwarfCloser> dw(dwarf_begin(fd, DWARF_C_READ));
  if (!dw)
    return util::fail(fmt::format("cannot read the DWARF debug information of '{}': {} "
                                  "(rebuild it, or strip it with --strip-debug)",
                                  path.string(), dwarf_errmsg(-1)));
  info.has_dwarf_ = true;

  std::map<uint32_t, Declaration> declarations;  // by subprogram entry address
  UnitReader reader(index, info.functions_, info.code_ranges_, declarations,
                    section_bytes(dwarf_getelf(dw.get()), ".debug_line"));
  Dwarf_CU* cu = nullptr;
  Dwarf_Die cudie;
  int status = 0;
  while ((status = dwarf_get_units(dw.get(), cu, &cu, nullptr, nullptr, &cudie, nullptr)) == 0)
    reader.read(&cudie);
  if (status < 0)
    return util::fail(fmt::format("malformed DWARF in '{}': {}", path.string(), dwarf_errmsg(-1)));
  index.finish_file_names();

  // End-of-sequence rows first at equal addresses, so that a sequence starting where another
  // ends wins the lookup.
  std::stable_sort(index.rows.begin(), index.rows.end(), [](const LineRow& a, const LineRow& b) {
    if (a.address != b.address) return a.address < b.address;
    return a.end_sequence && !b.end_sequence;
  });
  for (auto& f : info.functions_) {
    auto d = declarations.find(f.entry_address);
    if (d != declarations.end()) f.declaration = index.position(d->second.file, d->second.line);
  }
  for (auto& f : info.functions_)
    if (!f.declaration.known()) f.declaration = info.line_at(f.entry_address);
  info.line_cache_.clear();
  return info;
}

const FunctionInfo* DebugInfo::function_at(uint32_t address) {
  auto cached = function_cache_.find(address);
  if (cached != function_cache_.end()) return cached->second;
  const ptrdiff_t i = find_function(functions_, code_ranges_, address);
  const FunctionInfo* f = i < 0 ? nullptr : &functions_[static_cast<size_t>(i)];
  function_cache_.emplace(address, f);
  return f;
}

const std::string* DebugInfo::label_at(uint32_t address) const {
  auto it = labels_.find(address);
  return it == labels_.end() ? nullptr : &it->second;
}

SourcePosition DebugInfo::line_at(uint32_t address) {
  auto cached = line_cache_.find(address);
  if (cached != line_cache_.end()) return cached->second;
  SourcePosition pos;
  const auto& rows = index_->rows;
  auto it = std::upper_bound(rows.begin(), rows.end(), address,
                             [](uint32_t a, const LineRow& r) { return a < r.address; });
  if (it != rows.begin()) {
    --it;
    if (!it->end_sequence) pos = index_->position(it->file, it->line);
  }
  line_cache_.emplace(address, pos);
  return pos;
}

bool DebugInfo::has_inlined_code_of(std::string_view function) const {
  for (const auto& ranges : index_->inlined)
    for (const auto& r : ranges)
      if (r.high > r.low && r.function == function) return true;
  return false;
}

std::vector<InlineFrame> DebugInfo::inline_chain(uint32_t address) {
  auto cached = inline_cache_.find(address);
  if (cached != inline_cache_.end()) return cached->second;
  std::vector<InlineFrame> chain;
  const ptrdiff_t f = find_function(functions_, code_ranges_, address);
  if (f >= 0) {
    std::vector<const InlineRange*> hits;
    for (const auto& r : index_->inlined[static_cast<size_t>(f)])
      if (address >= r.low && address < r.high) hits.push_back(&r);
    std::stable_sort(hits.begin(), hits.end(),
                     [](const InlineRange* a, const InlineRange* b) { return a->depth > b->depth; });
    for (const InlineRange* r : hits)
      chain.push_back({r->function, index_->position(r->call_file, r->call_line)});
  }
  inline_cache_.emplace(address, chain);
  return chain;
}

}  // namespace fathom::elf
