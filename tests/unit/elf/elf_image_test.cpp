// elf::ElfImage on hand-built and damaged files: every malformed input must come back as an
// error (never a crash or an out-of-bounds read), and a good file must give its segments,
// sorted symbols and readable memory.
#include "elf/elf_image.h"

#include <elf.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>
#include "../test_paths.h"

namespace fathom::elf {
namespace {

constexpr uint32_t kBase = 0x1000;  // virtual (= load) address of the one segment

// A minimal ELF32 little-endian ARM executable, laid out by hand:
//   Elf32_Ehdr | Elf32_Phdr | segment data | .symtab | .strtab | .shstrtab | section headers
// The segment holds 20 bytes of "code and data" and reserves 12 more bytes of zeroes (bss).
// Symbols are stored out of address order on purpose.
struct MiniElf {
  static constexpr uint32_t kPhoff = sizeof(Elf32_Ehdr);
  static constexpr uint32_t kDataOffset = kPhoff + sizeof(Elf32_Phdr);
  static constexpr uint32_t kMemSize = 32;

  // alpha: [0, 8), zeta: [8, 12), "msg\0" at 12, nosize (no size) at 16.
  std::vector<uint8_t> payload = {0x00, 0xBF, 0x00, 0xBF, 0x00, 0xBF, 0x70, 0x47,  // alpha
                                  0x00, 0xBF, 0x70, 0x47,                          // zeta
                                  'm',  's',  'g',  0,                             // message
                                  0x70, 0x47, 0x00, 0xBF};                         // nosize
  bool with_sections = true;
  // Adds a sixth section: code at kBase + 4 over the same bytes, overlapping .text (a damaged
  // file; found by tests/fuzz/fuzz_elf_image.cpp).
  bool overlapping_code_section = false;

  uint32_t data_size() const { return static_cast<uint32_t>(payload.size()); }

  std::vector<uint8_t> build() const {
    std::vector<uint8_t> out;
    out.reserve(1024);
    out.resize(kDataOffset);
    append(out, payload.data(), payload.size());
    align(out);

    // Symbol names and the symbol table.
    std::string strtab(1, '\0');
    auto name = [&](const char* n) {
      const auto at = static_cast<uint32_t>(strtab.size());
      strtab += n;
      strtab.push_back('\0');
      return at;
    };
    std::vector<Elf32_Sym> syms(1);  // index 0: the null symbol
    auto sym = [&](const char* n, uint32_t value, uint32_t size, int bind, int type) {
      Elf32_Sym s{};
      s.st_name = name(n);
      s.st_value = value;
      s.st_size = size;
      s.st_info = static_cast<unsigned char>(ELF32_ST_INFO(bind, type));
      s.st_shndx = 1;
      syms.push_back(s);
    };
    sym("$t", kBase, 0, STB_LOCAL, STT_NOTYPE);  // mapping symbol: must be skipped
    sym("zeta", kBase + 8 + 1, 4, STB_GLOBAL, STT_FUNC);
    sym("message", kBase + 12, 4, STB_LOCAL, STT_OBJECT);
    sym("nosize", kBase + 16 + 1, 0, STB_GLOBAL, STT_FUNC);
    sym("alpha", kBase + 1, 8, STB_GLOBAL, STT_FUNC);
    {
      Elf32_Sym undef{};
      undef.st_name = name("undefined_import");
      undef.st_info = ELF32_ST_INFO(STB_GLOBAL, STT_FUNC);
      undef.st_shndx = SHN_UNDEF;
      syms.push_back(undef);
    }
    const auto symtab_offset = static_cast<uint32_t>(out.size());
    append(out, syms.data(), syms.size() * sizeof(Elf32_Sym));
    const auto strtab_offset = static_cast<uint32_t>(out.size());
    append(out, strtab.data(), strtab.size());
    align(out);
    const std::string shstrtab("\0.text\0.symtab\0.strtab\0.shstrtab\0", 34);
    const auto shstrtab_offset = static_cast<uint32_t>(out.size());
    append(out, shstrtab.data(), shstrtab.size());
    align(out);

    std::vector<Elf32_Shdr> sh(overlapping_code_section ? 6 : 5);
    sh[1] = section(1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kBase, kDataOffset, data_size());
    sh[2] = section(7, SHT_SYMTAB, 0, 0, symtab_offset,
                    static_cast<uint32_t>(syms.size() * sizeof(Elf32_Sym)));
    sh[2].sh_link = 3;
    sh[2].sh_info = 1;
    sh[2].sh_entsize = sizeof(Elf32_Sym);
    sh[3] = section(15, SHT_STRTAB, 0, 0, strtab_offset, static_cast<uint32_t>(strtab.size()));
    sh[4] = section(23, SHT_STRTAB, 0, 0, shstrtab_offset, static_cast<uint32_t>(shstrtab.size()));
    if (overlapping_code_section)
      sh[5] = section(1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, kBase + 4, kDataOffset + 4,
                      data_size() - 4);
    const auto shoff = static_cast<uint32_t>(out.size());
    if (with_sections) append(out, sh.data(), sh.size() * sizeof(Elf32_Shdr));

    Elf32_Ehdr eh{};
    std::memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS32;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_EXEC;
    eh.e_machine = EM_ARM;
    eh.e_version = EV_CURRENT;
    eh.e_entry = kBase + 1;
    eh.e_phoff = kPhoff;
    eh.e_shoff = with_sections ? shoff : 0;
    eh.e_flags = 0x05000400;  // EABI5, hard float
    eh.e_ehsize = sizeof(Elf32_Ehdr);
    eh.e_phentsize = sizeof(Elf32_Phdr);
    eh.e_phnum = 1;
    eh.e_shentsize = sizeof(Elf32_Shdr);
    eh.e_shnum = static_cast<Elf32_Half>(with_sections ? sh.size() : 0);
    eh.e_shstrndx = with_sections ? 4 : 0;
    std::memcpy(out.data(), &eh, sizeof eh);

    Elf32_Phdr ph{};
    ph.p_type = PT_LOAD;
    ph.p_offset = kDataOffset;
    ph.p_vaddr = kBase;
    ph.p_paddr = kBase;
    ph.p_filesz = data_size();
    ph.p_memsz = kMemSize;
    ph.p_flags = PF_R | PF_X;
    ph.p_align = 4;
    std::memcpy(out.data() + kPhoff, &ph, sizeof ph);
    return out;
  }

 private:
  static Elf32_Shdr section(uint32_t name, uint32_t type, uint32_t flags, uint32_t addr,
                            uint32_t offset, uint32_t size) {
    Elf32_Shdr s{};
    s.sh_name = name;
    s.sh_type = type;
    s.sh_flags = flags;
    s.sh_addr = addr;
    s.sh_offset = offset;
    s.sh_size = size;
    s.sh_addralign = 1;
    return s;
  }
  static void append(std::vector<uint8_t>& out, const void* data, size_t size) {
    const auto* p = static_cast<const uint8_t*>(data);
    out.insert(out.end(), p, p + size);
  }
  static void align(std::vector<uint8_t>& out) {
    while (out.size() % 4) out.push_back(0);
  }
};

// Overwrites the field at `offset` in `bytes` with `value` (little-endian, sizeof(T) bytes).
template <typename T>
void poke(std::vector<uint8_t>& bytes, size_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), bytes.size());
  std::memcpy(bytes.data() + offset, &value, sizeof(T));
}

constexpr size_t kPh = MiniElf::kPhoff;

std::string parse_error(std::vector<uint8_t> bytes) {
  auto img = ElfImage::parse(std::move(bytes), "test.elf");
  if (img) return "";
  return img.error().message;
}

// The error for `bytes`, which must name the file and contain `expected`.
void expect_error(std::vector<uint8_t> bytes, const std::string& expected) {
  const std::string message = parse_error(std::move(bytes));
  ASSERT_FALSE(message.empty()) << "parsed, but should have failed with: " << expected;
  EXPECT_NE(message.find("test.elf"), std::string::npos) << message;
  EXPECT_NE(message.find(expected), std::string::npos) << message;
}

TEST(ElfImage, ParsesTheHandBuiltImage) {
  auto img = ElfImage::parse(MiniElf{}.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  EXPECT_EQ(img->entry(), kBase + 1);
  ASSERT_EQ(img->segments().size(), 1u);
  const LoadSegment& seg = img->segments()[0];
  EXPECT_EQ(seg.load_address, kBase);
  EXPECT_EQ(seg.virtual_address, kBase);
  EXPECT_EQ(seg.memory_size_bytes, MiniElf::kMemSize);
  EXPECT_TRUE(seg.executable);
  EXPECT_EQ(seg.data, MiniElf{}.payload);
  // Section 0 (SHT_NULL) is not listed.
  ASSERT_EQ(img->sections().size(), 4u);
  const Section& text = img->sections()[0];
  EXPECT_EQ(text.name, ".text");
  EXPECT_EQ(text.address, kBase);
  EXPECT_EQ(text.size_bytes, MiniElf{}.data_size());
  EXPECT_TRUE(text.allocated);
  EXPECT_TRUE(text.executable);
  EXPECT_FALSE(text.writable);
  EXPECT_TRUE(text.has_file_data);
  EXPECT_EQ(img->sections()[1].name, ".symtab");
  EXPECT_FALSE(img->sections()[1].allocated);
}

TEST(ElfImage, SymbolsAreSortedWithTheThumbBitCleared) {
  auto img = ElfImage::parse(MiniElf{}.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  std::vector<std::string> names;
  for (const auto& s : img->symbols()) names.push_back(s.name);
  // No "$t" mapping symbol, no undefined symbol.
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "zeta", "message", "nosize"}));
  const Symbol* alpha = img->find_symbol("alpha");
  ASSERT_NE(alpha, nullptr);
  EXPECT_EQ(alpha->address, kBase);
  EXPECT_EQ(alpha->size_bytes, 8u);
  EXPECT_TRUE(alpha->is_function);
  EXPECT_TRUE(alpha->is_global);
  const Symbol* message = img->find_symbol("message");
  ASSERT_NE(message, nullptr);
  EXPECT_EQ(message->address, kBase + 12);
  EXPECT_FALSE(message->is_function);
  EXPECT_FALSE(message->is_global);
  EXPECT_EQ(img->find_symbol("undefined_import"), nullptr);
  EXPECT_EQ(img->find_symbol("$t"), nullptr);
  EXPECT_EQ(img->find_symbol("absent"), nullptr);
}

TEST(ElfImage, FunctionAtAndDescribeAddress) {
  auto img = ElfImage::parse(MiniElf{}.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  auto function_name = [&](uint32_t address) -> std::string {
    const Symbol* s = img->function_at(address);
    return s ? s->name : "(none)";
  };
  EXPECT_EQ(function_name(kBase - 1), "(none)");
  EXPECT_EQ(function_name(kBase), "alpha");
  EXPECT_EQ(function_name(kBase + 7), "alpha");
  EXPECT_EQ(function_name(kBase + 8), "zeta");
  EXPECT_EQ(function_name(kBase + 11), "zeta");
  EXPECT_EQ(function_name(kBase + 12), "(none)") << "data, after the end of zeta";
  EXPECT_EQ(function_name(kBase + 16), "nosize");
  EXPECT_EQ(function_name(kBase + 0x100), "nosize") << "nearest preceding sizeless function";

  EXPECT_EQ(img->describe_address(kBase), "alpha");
  EXPECT_EQ(img->describe_address(kBase + 6), "alpha+0x6");
  EXPECT_EQ(img->describe_address(kBase + 10), "zeta+0x2");
  EXPECT_EQ(img->describe_address(kBase + 13), "0x0000100d");
  EXPECT_EQ(img->describe_address(0x10), "0x00000010");
}

TEST(ElfImage, ReadStaysInsideFileData) {
  auto img = ElfImage::parse(MiniElf{}.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  const auto& payload = MiniElf{}.payload;
  EXPECT_EQ(img->read(kBase, 20), payload);
  EXPECT_EQ(img->read(kBase + 19, 1), std::vector<uint8_t>{payload[19]});
  EXPECT_EQ(img->read(kBase + 20, 0), std::vector<uint8_t>{});
  EXPECT_FALSE(img->read(kBase, 21)) << "runs past the file data into bss";
  EXPECT_FALSE(img->read(kBase + 20, 1)) << "bss has no file data";
  EXPECT_FALSE(img->read(kBase - 1, 2)) << "starts before the segment";
  EXPECT_FALSE(img->read(0xFFFFFFFFu, 2)) << "wraps past 4 GiB";
  EXPECT_FALSE(img->read(kBase, 0xFFFFFFFFu));
}

TEST(ElfImage, ReadStringIsBounded) {
  auto img = ElfImage::parse(MiniElf{}.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  EXPECT_EQ(img->read_string(kBase + 12), "msg");
  EXPECT_EQ(img->read_string(kBase + 14), "g");
  EXPECT_EQ(img->read_string(kBase + 15), "");
  EXPECT_EQ(img->read_string(kBase + 16), "pG");
  EXPECT_FALSE(img->read_string(kBase + 12, 3)) << "the terminator is the 4th byte";
  EXPECT_EQ(img->read_string(kBase + 12, 4), "msg");
  EXPECT_FALSE(img->read_string(kBase + 19)) << "no terminator before the end of the file data";
  EXPECT_FALSE(img->read_string(0x5000));
}

TEST(ElfImage, ImageWithoutSectionsHasNoSymbols) {
  MiniElf elf;
  elf.with_sections = false;
  auto img = ElfImage::parse(elf.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  EXPECT_TRUE(img->symbols().empty());
  EXPECT_TRUE(img->sections().empty());
  EXPECT_EQ(img->describe_address(kBase), "0x00001000");
  EXPECT_EQ(img->read_string(kBase + 12), "msg");
}

TEST(ElfImage, CodeRangesOfOverlappingSectionsAreSortedAndMerged) {
  MiniElf mini;
  auto plain = ElfImage::parse(mini.build(), "test.elf");
  ASSERT_TRUE(plain) << plain.error().message;
  const auto one = plain->thumb_code_ranges();
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].begin, kBase);
  EXPECT_EQ(one[0].end, kBase + mini.data_size());

  // The second section has no mapping symbol of its own, so its code comes from the function
  // symbols inside it (zeta at kBase + 8), which lie inside the first section's range: one
  // range, not two that overlap out of order.
  mini.overlapping_code_section = true;
  auto img = ElfImage::parse(mini.build(), "test.elf");
  ASSERT_TRUE(img) << img.error().message;
  ASSERT_EQ(img->sections().size(), 5u);
  const auto ranges = img->thumb_code_ranges();
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].begin, kBase);
  EXPECT_EQ(ranges[0].end, kBase + mini.data_size());
}

TEST(ElfImage, LoadReportsAMissingFile) {
  auto img = ElfImage::load("/nonexistent/fathom/image.elf");
  ASSERT_FALSE(img);
  EXPECT_NE(img.error().message.find("/nonexistent/fathom/image.elf"), std::string::npos);
}

// --- malformed input ---

TEST(ElfImageMalformed, EmptyFile) { expect_error({}, "bad magic"); }

TEST(ElfImageMalformed, BadMagic) {
  auto bytes = MiniElf{}.build();
  bytes[1] = 'X';
  expect_error(bytes, "bad magic");
  expect_error({'\x7f', 'E', 'L'}, "bad magic");
}

TEST(ElfImageMalformed, SixtyFourBitElf) {
  // The first 4 KiB of this test binary: its ELF header and program headers.
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::vector<uint8_t> self(4096);
  in.read(reinterpret_cast<char*>(self.data()), static_cast<std::streamsize>(self.size()));
  self.resize(static_cast<size_t>(in.gcount()));
  ASSERT_GT(self.size(), 64u);
  ASSERT_EQ(self[EI_CLASS], ELFCLASS64) << "this test expects a 64-bit host";
  expect_error(std::move(self), "not a 32-bit ELF file");
}

TEST(ElfImageMalformed, BigEndian) {
  auto bytes = MiniElf{}.build();
  bytes[EI_DATA] = ELFDATA2MSB;
  expect_error(bytes, "not a little-endian ELF file");
}

TEST(ElfImageMalformed, NotArm) {
  auto bytes = MiniElf{}.build();
  poke<uint16_t>(bytes, offsetof(Elf32_Ehdr, e_machine), EM_386);
  expect_error(bytes, "not ARM");
}

TEST(ElfImageMalformed, NotAnExecutable) {
  for (uint16_t type : {ET_REL, ET_DYN, ET_CORE, ET_NONE}) {
    SCOPED_TRACE(type);
    auto bytes = MiniElf{}.build();
    poke<uint16_t>(bytes, offsetof(Elf32_Ehdr, e_type), type);
    expect_error(bytes, "ET_EXEC");
  }
}

TEST(ElfImageMalformed, ProgramHeaderTableOutsideTheFile) {
  auto bytes = MiniElf{}.build();
  for (uint32_t phoff : {0xFFFFFF00u, static_cast<uint32_t>(bytes.size()),
                         static_cast<uint32_t>(bytes.size() - 8)}) {
    SCOPED_TRACE(phoff);
    auto bad = bytes;
    poke<uint32_t>(bad, offsetof(Elf32_Ehdr, e_phoff), phoff);
    EXPECT_NE(parse_error(bad), "");
  }
  auto many = bytes;
  poke<uint16_t>(many, offsetof(Elf32_Ehdr, e_phnum), 0xFFF0);
  EXPECT_NE(parse_error(many), "");
}

TEST(ElfImageMalformed, SegmentDataOutsideTheFile) {
  auto bytes = MiniElf{}.build();
  auto far = bytes;
  poke<uint32_t>(far, kPh + offsetof(Elf32_Phdr, p_offset), 0x10000);
  expect_error(far, "lies outside the file");

  auto long_data = bytes;
  poke<uint32_t>(long_data, kPh + offsetof(Elf32_Phdr, p_filesz), 0xFFFFFFF0u);
  poke<uint32_t>(long_data, kPh + offsetof(Elf32_Phdr, p_memsz), 0xFFFFFFF0u);
  expect_error(long_data, "lies outside the file");

  auto wrapping = bytes;
  poke<uint32_t>(wrapping, kPh + offsetof(Elf32_Phdr, p_offset), 0xFFFFFFF0u);
  poke<uint32_t>(wrapping, kPh + offsetof(Elf32_Phdr, p_filesz), 0x20);
  expect_error(wrapping, "lies outside the file");
}

TEST(ElfImageMalformed, FileSizeLargerThanMemorySize) {
  auto bytes = MiniElf{}.build();
  poke<uint32_t>(bytes, kPh + offsetof(Elf32_Phdr, p_memsz), 4);
  expect_error(bytes, "file size > memory size");
}

TEST(ElfImageMalformed, SegmentWrapsPast4GiB) {
  for (size_t field : {offsetof(Elf32_Phdr, p_vaddr), offsetof(Elf32_Phdr, p_paddr)}) {
    SCOPED_TRACE(field);
    auto bytes = MiniElf{}.build();
    poke<uint32_t>(bytes, kPh + field, 0xFFFFFFF0u);
    expect_error(bytes, "wraps past the 4 GiB address space");
  }
  // Ending exactly at 4 GiB is fine.
  auto bytes = MiniElf{}.build();
  poke<uint32_t>(bytes, kPh + offsetof(Elf32_Phdr, p_vaddr), 0xFFFFFFE0u);
  poke<uint32_t>(bytes, kPh + offsetof(Elf32_Phdr, p_paddr), 0xFFFFFFE0u);
  EXPECT_EQ(parse_error(bytes), "");
}

TEST(ElfImageMalformed, NoLoadableSegment) {
  auto bytes = MiniElf{}.build();
  poke<uint32_t>(bytes, kPh + offsetof(Elf32_Phdr, p_type), PT_NOTE);
  expect_error(bytes, "no loadable segments");
}

TEST(ElfImageMalformed, SectionOutsideTheFile) {
  MiniElf elf;
  auto bytes = elf.build();
  Elf32_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  // .symtab (section 2) pointing past the end of the file.
  const size_t symtab_header = eh.e_shoff + 2 * sizeof(Elf32_Shdr);
  poke<uint32_t>(bytes, symtab_header + offsetof(Elf32_Shdr, sh_offset), 0x7FFFFFF0u);
  EXPECT_NE(parse_error(bytes), "");
}

TEST(ElfImageMalformed, SymbolTableWithABadEntrySize) {
  auto bytes = MiniElf{}.build();
  Elf32_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  const size_t symtab_header = eh.e_shoff + 2 * sizeof(Elf32_Shdr);
  poke<uint32_t>(bytes, symtab_header + offsetof(Elf32_Shdr, sh_entsize), 1);
  expect_error(bytes, "bad entry size");
}

TEST(ElfImageMalformed, SymbolNamesOutsideTheStringTable) {
  auto bytes = MiniElf{}.build();
  Elf32_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  Elf32_Shdr symtab;
  std::memcpy(&symtab, bytes.data() + eh.e_shoff + 2 * sizeof(Elf32_Shdr), sizeof symtab);
  // Symbol 1 names an offset far past the end of .strtab; it must be dropped or refused.
  poke<uint32_t>(bytes, symtab.sh_offset + sizeof(Elf32_Sym) + offsetof(Elf32_Sym, st_name),
                 0x7FFFFFFFu);
  auto img = ElfImage::parse(bytes, "test.elf");
  if (!img) return;
  for (const auto& s : img->symbols()) EXPECT_FALSE(s.name.empty());
}

// Every prefix of a valid file either parses or fails cleanly; a prefix that cuts into the
// headers or the segment data must fail.
TEST(ElfImageMalformed, EveryTruncation) {
  const auto full = MiniElf{}.build();
  const size_t needed = MiniElf::kDataOffset + MiniElf{}.data_size();
  for (size_t length = 0; length < full.size(); ++length) {
    SCOPED_TRACE(length);
    std::vector<uint8_t> prefix(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(length));
    auto img = ElfImage::parse(std::move(prefix), "test.elf");
    if (length < needed) {
      ASSERT_FALSE(img) << "a file cut inside its headers or segment data must be refused";
      EXPECT_NE(img.error().message.find("test.elf"), std::string::npos);
    }
  }
}

// Deterministic random damage: flip 1-8 bytes of a valid file, a few hundred times. Each
// result must parse or fail; when it parses, the accessors must stay in bounds.
TEST(ElfImageMalformed, RandomByteFlips) {
  const auto good = MiniElf{}.build();
  int parsed = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    auto bytes = good;
    const uint32_t flips = 1 + rng() % 8;
    for (uint32_t i = 0; i < flips; ++i) {
      // Half the flips land in the headers, where damage matters most.
      const size_t limit = (rng() & 1) ? MiniElf::kDataOffset : bytes.size();
      bytes[rng() % limit] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    auto img = ElfImage::parse(std::move(bytes), "test.elf");
    if (!img) {
      EXPECT_FALSE(img.error().message.empty());
      continue;
    }
    ++parsed;
    for (const auto& seg : img->segments()) {
      EXPECT_LE(seg.data.size(), seg.memory_size_bytes);
      (void)img->read(seg.virtual_address, static_cast<uint32_t>(seg.data.size()));
      (void)img->read_string(seg.virtual_address);
    }
    for (const auto& s : img->symbols()) (void)img->describe_address(s.address + 1);
  }
  // Flips in padding and in unused fields leave a usable image: the loop saw both outcomes.
  EXPECT_GT(parsed, 0);
  EXPECT_LT(parsed, 400);
}

// The same over the real test firmware, when the Arm toolchain built it.
TEST(ElfImageMalformed, RandomByteFlipsOverFirmware) {
  const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
  if (dir.empty()) GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time";
  std::ifstream in(dir + "/sim_fixture.elf", std::ios::binary);
  ASSERT_TRUE(in) << dir << "/sim_fixture.elf is missing";
  const std::vector<uint8_t> good((std::istreambuf_iterator<char>(in)),
                                  std::istreambuf_iterator<char>());
  ASSERT_TRUE(ElfImage::parse(good, "sim_fixture.elf"));
  Elf32_Ehdr eh;
  std::memcpy(&eh, good.data(), sizeof eh);
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE(seed);
    std::mt19937 rng(seed);
    auto bytes = good;
    for (uint32_t i = 0, n = 1 + rng() % 8; i < n; ++i) {
      // Aim at the ELF header, the program headers and the section header table.
      size_t at = 0;
      switch (rng() % 3) {
        case 0: at = rng() % sizeof(Elf32_Ehdr); break;
        case 1: at = eh.e_phoff + rng() % (eh.e_phnum * sizeof(Elf32_Phdr)); break;
        default: at = eh.e_shoff + rng() % (eh.e_shnum * sizeof(Elf32_Shdr)); break;
      }
      if (at < bytes.size()) bytes[at] ^= static_cast<uint8_t>(1u << (rng() % 8));
    }
    auto img = ElfImage::parse(std::move(bytes), "sim_fixture.elf");
    if (!img) continue;
    for (const auto& s : img->symbols()) (void)img->describe_address(s.address);
  }
}

}  // namespace
}  // namespace fathom::elf
