#include "elf/elf_image.h"

#include <fmt/core.h>
#include <gelf.h>
#include <libelf.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>

namespace fathom::elf {
namespace {

struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};

bool range_ok(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

}  // namespace

util::Result<ElfImage> ElfImage::load(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return util::fail(fmt::format("cannot open ELF file '{}'", path.string()));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parse(std::move(bytes), path.string());
}

util::Result<ElfImage> ElfImage::parse(std::vector<uint8_t> bytes, const std::string& name) {
  auto bad = [&](const std::string& what) {
    return util::fail(fmt::format("'{}' is not a usable Cortex-M image: {}", name, what));
  };
  if (bytes.size() < EI_NIDENT || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' ||
      bytes[3] != 'F')
    return bad("not an ELF file (bad magic)");
  if (bytes[EI_CLASS] != ELFCLASS32) return bad("not a 32-bit ELF file");
  if (bytes[EI_DATA] != ELFDATA2LSB) return bad("not a little-endian ELF file");
  if (bytes.size() < sizeof(Elf32_Ehdr)) return bad("truncated ELF header");

  // libelf's version is process-wide state: set it once, not from every (parallel) load.
  static const bool libelf_ready = elf_version(EV_CURRENT) != EV_NONE;
  (void)libelf_ready;
  std::unique_ptr<Elf, ElfCloser> e(
      elf_memory(reinterpret_cast<char*>(bytes.data()), bytes.size()));
  if (!e || elf_kind(e.get()) != ELF_K_ELF) return bad(elf_errmsg(-1));
  GElf_Ehdr eh;
  if (!gelf_getehdr(e.get(), &eh)) return bad(fmt::format("bad ELF header: {}", elf_errmsg(-1)));
  if (eh.e_machine != EM_ARM) return bad(fmt::format("machine {} is not ARM (40)", eh.e_machine));
  if (eh.e_type != ET_EXEC) return bad("not an executable (ET_EXEC); link it first");

  const uint64_t file_size = bytes.size();
  ElfImage img;
  img.entry_ = static_cast<uint32_t>(eh.e_entry);

  size_t phnum = 0;
  if (elf_getphdrnum(e.get(), &phnum) != 0) return bad("unreadable program headers");
  if (!range_ok(eh.e_phoff, static_cast<uint64_t>(phnum) * sizeof(Elf32_Phdr), file_size))
    return bad("program header table lies outside the file");
  for (size_t i = 0; i < phnum; ++i) {
    GElf_Phdr ph;
    if (!gelf_getphdr(e.get(), static_cast<int>(i), &ph)) return bad("unreadable program header");
    if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (!range_ok(ph.p_offset, ph.p_filesz, file_size))
      return bad(fmt::format("segment {} data (offset {:#x}, {} bytes) lies outside the file", i,
                             ph.p_offset, ph.p_filesz));
    if (ph.p_filesz > ph.p_memsz) return bad(fmt::format("segment {} file size > memory size", i));
    if (ph.p_paddr + ph.p_memsz > (1ULL << 32) || ph.p_vaddr + ph.p_memsz > (1ULL << 32))
      return bad(fmt::format("segment {} wraps past the 4 GiB address space", i));
    LoadSegment s;
    s.file_offset = ph.p_offset;
    s.load_address = static_cast<uint32_t>(ph.p_paddr);
    s.virtual_address = static_cast<uint32_t>(ph.p_vaddr);
    s.memory_size_bytes = static_cast<uint32_t>(ph.p_memsz);
    s.executable = (ph.p_flags & PF_X) != 0;
    s.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(ph.p_offset),
                  bytes.begin() + static_cast<std::ptrdiff_t>(ph.p_offset + ph.p_filesz));
    img.segments_.push_back(std::move(s));
  }
  if (img.segments_.empty()) return bad("no loadable segments");

  size_t shstrndx = 0;
  if (elf_getshdrstrndx(e.get(), &shstrndx) != 0) shstrndx = 0;
  for (Elf_Scn* scn = elf_nextscn(e.get(), nullptr); scn; scn = elf_nextscn(e.get(), scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) return bad("unreadable section header");
    if (sh.sh_type != SHT_NOBITS && sh.sh_type != SHT_NULL &&
        !range_ok(sh.sh_offset, sh.sh_size, file_size))
      return bad(fmt::format("section {} lies outside the file", elf_ndxscn(scn)));
    const char* sname = shstrndx ? elf_strptr(e.get(), shstrndx, sh.sh_name) : nullptr;
    Section sec;
    sec.name = sname ? sname : "";
    sec.address = static_cast<uint32_t>(sh.sh_addr);
    sec.size_bytes = static_cast<uint32_t>(sh.sh_size);
    sec.allocated = (sh.sh_flags & SHF_ALLOC) != 0;
    sec.executable = (sh.sh_flags & SHF_EXECINSTR) != 0;
    sec.writable = (sh.sh_flags & SHF_WRITE) != 0;
    sec.has_file_data = sh.sh_type != SHT_NOBITS;
    img.sections_.push_back(sec);
    // The ARM build attributes (SHT_ARM_ATTRIBUTES): which core the code was built for.
    if (sh.sh_type == 0x70000003u && img.arm_attributes_.empty())
      img.arm_attributes_.assign(bytes.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset),
                                 bytes.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset + sh.sh_size));

    if (sh.sh_type != SHT_SYMTAB) continue;
    if (sh.sh_entsize != sizeof(Elf32_Sym)) return bad("symbol table with a bad entry size");
    Elf_Data* data = elf_getdata(scn, nullptr);
    if (!data) return bad("unreadable symbol table");
    const size_t count = sh.sh_size / sh.sh_entsize;
    for (size_t k = 0; k < count; ++k) {
      GElf_Sym sym;
      if (!gelf_getsym(data, static_cast<int>(k), &sym)) return bad("unreadable symbol");
      const int type = GELF_ST_TYPE(sym.st_info);
      if (type != STT_FUNC && type != STT_OBJECT && type != STT_NOTYPE) continue;
      if (sym.st_shndx == SHN_UNDEF) continue;
      const char* n = elf_strptr(e.get(), sh.sh_link, sym.st_name);
      if (!n || !*n) continue;
      if (n[0] == '$') {  // mapping symbols: $t Thumb code, $a Arm code, $d data (AAELF 5.5.5)
        if ((n[1] == 't' || n[1] == 'a' || n[1] == 'd') && (n[2] == '\0' || n[2] == '.'))
          img.mapping_symbols_.push_back({static_cast<uint32_t>(sym.st_value) & ~1u,
                                          static_cast<uint32_t>(sym.st_shndx), n[1],
                                          n[2] == '.' ? std::string(n + 3) : std::string()});
        continue;
      }
      Symbol s;
      s.name = n;
      s.is_function = type == STT_FUNC;
      s.address = static_cast<uint32_t>(sym.st_value) & (s.is_function ? ~1u : ~0u);
      s.size_bytes = static_cast<uint32_t>(sym.st_size);
      s.is_global = GELF_ST_BIND(sym.st_info) != STB_LOCAL;
      s.untyped = type == STT_NOTYPE;
      img.symbols_.push_back(std::move(s));
    }
  }
  std::stable_sort(img.symbols_.begin(), img.symbols_.end(),
                   [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
  std::stable_sort(img.mapping_symbols_.begin(), img.mapping_symbols_.end(),
                   [](const MappingSymbol& a, const MappingSymbol& b) { return a.address < b.address; });
  return img;
}

std::vector<CodeRange> ElfImage::thumb_code_ranges() const {
  std::vector<CodeRange> out;
  auto add = [&](uint32_t begin, uint32_t end) {
    if (begin < end) out.push_back({begin, end});
  };
  for (const auto& sec : sections_) {
    if (!sec.allocated || !sec.executable || !sec.has_file_data || sec.size_bytes == 0) continue;
    const uint64_t sec_end = uint64_t{sec.address} + sec.size_bytes;
    bool any_mapping = false;
    for (size_t i = 0; i < mapping_symbols_.size(); ++i) {
      const MappingSymbol& m = mapping_symbols_[i];
      if (m.address < sec.address || m.address >= sec_end) continue;
      any_mapping = true;
      if (m.kind != 't') continue;
      uint64_t end = sec_end;
      for (size_t j = i + 1; j < mapping_symbols_.size(); ++j)
        if (mapping_symbols_[j].address > m.address) {
          end = std::min<uint64_t>(end, mapping_symbols_[j].address);
          break;
        }
      add(m.address, static_cast<uint32_t>(end));
    }
    if (any_mapping) continue;
    // No mapping symbols (a stripped or hand-assembled image): the function symbols' extents.
    for (const auto& s : symbols_)
      if (s.is_function && s.size_bytes && s.address >= sec.address &&
          uint64_t{s.address} + s.size_bytes <= sec_end)
        add(s.address, s.address + s.size_bytes);
  }
  // Sorted, and touching or overlapping ranges merged: the sections of a damaged file may
  // overlap or be out of address order.
  std::sort(out.begin(), out.end(),
            [](const CodeRange& a, const CodeRange& b) { return a.begin < b.begin; });
  std::vector<CodeRange> merged;
  for (const CodeRange& r : out) {
    if (!merged.empty() && r.begin <= merged.back().end)
      merged.back().end = std::max(merged.back().end, r.end);
    else
      merged.push_back(r);
  }
  return merged;
}

std::vector<Symbol> ElfImage::local_code_labels() const {
  const std::vector<CodeRange> code = thumb_code_ranges();
  auto in_code = [&](uint32_t address) {
    auto it = std::upper_bound(code.begin(), code.end(), address,
                               [](uint32_t a, const CodeRange& r) { return a < r.begin; });
    return it != code.begin() && address < std::prev(it)->end;
  };
  std::vector<Symbol> out;
  for (const Symbol& s : symbols_) {
    if (s.is_global || !(s.is_function || s.untyped) || s.name.starts_with(".L")) continue;
    if (!in_code(s.address & ~1u)) continue;
    Symbol label = s;
    label.address &= ~1u;
    out.push_back(std::move(label));
  }
  for (const MappingSymbol& m : mapping_symbols_) {
    if (m.kind != 't' || m.name.empty() ||
        m.name.find_first_not_of("0123456789") == std::string::npos || !in_code(m.address))
      continue;
    Symbol label;
    label.name = m.name;
    label.address = m.address;
    label.is_function = true;
    out.push_back(std::move(label));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Symbol& a, const Symbol& b) { return a.address < b.address; });
  return out;
}

const Symbol* ElfImage::find_symbol(const std::string& name) const {
  for (const auto& s : symbols_)
    if (s.name == name) return &s;
  return nullptr;
}

const Symbol* ElfImage::function_at(uint32_t address) const {
  const Symbol* best = nullptr;
  for (const auto& s : symbols_) {
    if (s.address > address) break;
    if (!s.is_function) continue;
    if (s.size_bytes && address < s.address + s.size_bytes) return &s;
    if (!s.size_bytes) best = &s;
  }
  return best;
}

std::string ElfImage::describe_address(uint32_t address) const {
  if (const Symbol* s = function_at(address))
    return address == s->address ? s->name : fmt::format("{}+{:#x}", s->name, address - s->address);
  return fmt::format("{:#010x}", address);
}

std::optional<std::vector<uint8_t>> ElfImage::read(uint32_t address, uint32_t size) const {
  for (const auto& seg : segments_) {
    const uint64_t start = seg.virtual_address;
    const uint64_t end = start + seg.data.size();
    if (address >= start && uint64_t{address} + size <= end) {
      const auto offset = static_cast<std::ptrdiff_t>(address - start);
      return std::vector<uint8_t>(seg.data.begin() + offset, seg.data.begin() + offset + size);
    }
  }
  return std::nullopt;
}

std::optional<std::string> ElfImage::read_string(uint32_t address, uint32_t max_bytes) const {
  std::string out;
  for (uint32_t i = 0; i < max_bytes; ++i) {
    auto byte = read(address + i, 1);
    if (!byte) return std::nullopt;
    if ((*byte)[0] == 0) return out;
    out.push_back(static_cast<char>((*byte)[0]));
  }
  return std::nullopt;
}

}  // namespace fathom::elf
