#include "elf/size_attribution.h"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>

namespace fathom::elf {
namespace {

constexpr std::string_view kMemoryMapHeading = "Linker script and memory map";
constexpr std::string_view kOther = "other";

std::vector<std::string_view> split_words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    const size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

bool starts_with_digit(std::string_view word) {
  return !word.empty() && std::isdigit(static_cast<unsigned char>(word[0]));
}

// GNU ld prints every address and size as 0x followed by hex digits (8 or 16 of them).
std::optional<uint64_t> parse_hex(std::string_view word) {
  if (word.size() < 3 || word.size() > 18 || word[0] != '0' || (word[1] != 'x' && word[1] != 'X'))
    return std::nullopt;
  uint64_t value = 0;
  for (char c : word.substr(2)) {
    int digit;
    if (c >= '0' && c <= '9') digit = c - '0';
    else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
    else return std::nullopt;
    value = value * 16 + static_cast<uint64_t>(digit);
  }
  return value;
}

// A word that can name a section ("*fill*" and script patterns like "*(.text)" cannot).
bool is_section_name(std::string_view word) {
  if (word.empty()) return false;
  for (char c : word)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '$' &&
        c != '-')
      return false;
  return true;
}

std::string join(const std::vector<std::string_view>& words, size_t from) {
  std::string out;
  for (size_t i = from; i < words.size(); ++i) {
    if (!out.empty()) out += ' ';
    out += words[i];
  }
  return out;
}

std::string file_name(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "libmbedtls.a" -> "mbedtls"; "" when `name` is not lib*.a.
std::string archive_stem(const std::string& name) {
  if (name.size() < 6 || !starts_with(name, "lib") || name.substr(name.size() - 2) != ".a")
    return "";
  return name.substr(3, name.size() - 5);
}

std::string component_of_stem(const std::string& stem) {
  if (stem == "gcc") return "libgcc";
  if (stem == "m" || starts_with(stem, "m_")) return "libm";
  if (stem == "c" || starts_with(stem, "c_") || stem == "g" || starts_with(stem, "g_") ||
      stem == "nosys" || stem == "picolibc" || starts_with(stem, "rdimon") || stem == "semihost")
    return "libc";
  return stem;
}

// The archive path of "path/libx.a(member.o)", or "" for a plain object.
std::string archive_of(const std::string& file) {
  if (file.empty() || file.back() != ')') return "";
  const size_t open = file.rfind('(');
  return open == std::string::npos || open == 0 ? "" : file.substr(0, open);
}

}  // namespace

SizeBreakdown& SizeBreakdown::operator+=(const SizeBreakdown& o) {
  text_bytes += o.text_bytes;
  rodata_bytes += o.rodata_bytes;
  data_bytes += o.data_bytes;
  bss_bytes += o.bss_bytes;
  return *this;
}

const ComponentSize* SizeAttribution::find(const std::string& name) const {
  for (const auto& c : components)
    if (c.component == name) return &c;
  return nullptr;
}

std::vector<OutputSection> output_sections(const ElfImage& image) {
  std::vector<OutputSection> out;
  for (const auto& s : image.sections()) {
    if (!s.allocated || s.size_bytes == 0 || s.name == ".stack" || s.name == ".heap") continue;
    OutputSection o;
    o.name = s.name;
    o.size_bytes = s.size_bytes;
    if (s.executable) {
      o.kind = SectionKind::kText;
    } else if (!s.has_file_data) {
      o.kind = SectionKind::kBss;
    } else {
      // Initialised data lives at one address (RAM) and loads from another (flash).
      o.kind = SectionKind::kRodata;
      for (const auto& seg : image.segments())
        if (s.address >= seg.virtual_address &&
            uint64_t{s.address} + s.size_bytes <=
                uint64_t{seg.virtual_address} + seg.memory_size_bytes &&
            seg.load_address != seg.virtual_address)
          o.kind = SectionKind::kData;
    }
    out.push_back(std::move(o));
  }
  return out;
}

util::Result<std::vector<MapInputSection>> parse_map_file(std::string_view text,
                                                          const std::string& display_name) {
  std::vector<MapInputSection> out;
  bool in_memory_map = false;
  std::string output_section;
  // A section name printed alone on its line: its address and size follow on the next line.
  bool pending_output = false;
  std::optional<std::string> pending_input;
  size_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!in_memory_map) {
      in_memory_map = line == kMemoryMapHeading;
      continue;
    }
    const auto words = split_words(line);
    if (words.empty()) {
      pending_output = false;
      pending_input.reset();
      continue;
    }
    auto number = [&](std::string_view word) -> util::Result<uint64_t> {
      auto v = parse_hex(word);
      if (!v)
        return util::fail(fmt::format("{}:{}: malformed number '{}' (expected 0x and hex digits; "
                                      "is this a GNU ld map file?)",
                                      display_name, line_number, word));
      return *v;
    };
    const bool indented = std::isspace(static_cast<unsigned char>(line[0]));

    // The address and size of a section named on the line before.
    if (indented && (pending_output || pending_input) && words.size() >= 2 &&
        starts_with_digit(words[0]) && starts_with_digit(words[1])) {
      auto address = number(words[0]);
      if (!address) return tl::unexpected(address.error());
      auto size = number(words[1]);
      if (!size) return tl::unexpected(size.error());
      if (!pending_output && words.size() >= 3) {
        out.push_back({output_section, *pending_input, *address, *size, join(words, 2),
                       line_number - 1});
      }
      pending_output = false;
      pending_input.reset();
      continue;
    }
    pending_output = false;
    pending_input.reset();

    if (!indented) {
      // An output section: ".text  0x00000000  0x1c27c [load address 0x...]", or its name alone.
      if (!is_section_name(words[0])) continue;
      if (words.size() == 1) {
        output_section = std::string(words[0]);
        pending_output = true;
      } else if (words.size() >= 3 && starts_with_digit(words[1]) && starts_with_digit(words[2])) {
        if (auto a = number(words[1]); !a) return tl::unexpected(a.error());
        if (auto s = number(words[2]); !s) return tl::unexpected(s.error());
        output_section = std::string(words[0]);
      }
      continue;
    }
    // An input section starts one space in: " .text.name  0xADDR  0xSIZE  file". Deeper
    // lines are symbols and assignments; "*fill*" and script patterns are skipped.
    if (line.size() < 2 || line[0] != ' ' || line[1] == ' ' || !is_section_name(words[0]))
      continue;
    if (words.size() == 1) {
      pending_input = std::string(words[0]);
    } else if (words.size() >= 3 && starts_with_digit(words[1]) && starts_with_digit(words[2])) {
      auto address = number(words[1]);
      if (!address) return tl::unexpected(address.error());
      auto size = number(words[2]);
      if (!size) return tl::unexpected(size.error());
      if (words.size() >= 4)
        out.push_back({output_section, std::string(words[0]), *address, *size, join(words, 3),
                       line_number});
    }
  }
  if (!in_memory_map)
    return util::fail(fmt::format("'{}' is not a GNU ld map file: it has no '{}' part (link with "
                                  "-Wl,-Map=FILE)",
                                  display_name, kMemoryMapHeading));
  return out;
}

std::string component_of(const std::string& file, const std::vector<std::string>& libraries) {
  const std::string archive = archive_of(file);
  if (!archive.empty()) {
    const std::string stem = archive_stem(file_name(archive));
    return stem.empty() ? std::string(kOther) : component_of_stem(stem);
  }
  const std::string base = file_name(file);
  if (base == "crt0.o" || base == "crt0-semihost.o") return "libc";
  if (starts_with(base, "crt") && base.size() > 2 && base.substr(base.size() - 2) == ".o")
    return "libgcc";  // crti.o, crtn.o, crtbegin.o, crtend.o

  // fathom's builds name objects after their path below the repository ("obj/firmware_harness_
  // fathom_heap_c.o"); other builds keep the path ("/repo/firmware/harness/x.o").
  auto under = [&](std::string_view folder) {
    return starts_with(base, fmt::format("firmware_{}_", folder)) ||
           file.find(fmt::format("firmware/{}/", folder)) != std::string::npos;
  };
  if (under("harness")) return "harness";
  if (under("boards")) return "startup";
  if (under("workloads")) return "workloads";
  if (under("libs")) {
    const std::string flat = "firmware_libs_";
    const std::string nested = "firmware/libs/";
    for (const auto& lib : libraries) {
      if (lib.empty()) continue;
      if (starts_with(base, flat + lib + "_") ||
          file.find(nested + lib + "/") != std::string::npos)
        return lib;
    }
    const size_t at = file.find(nested);
    if (at != std::string::npos) {
      const size_t from = at + nested.size();
      const size_t slash = file.find('/', from);
      if (slash != std::string::npos && slash > from) return file.substr(from, slash - from);
    }
  }
  return std::string(kOther);
}

util::Result<SizeAttribution> attribute_sizes(std::string_view map_text,
                                              const std::string& display_name,
                                              const std::vector<OutputSection>& sections) {
  auto inputs = parse_map_file(map_text, display_name);
  if (!inputs) return tl::unexpected(inputs.error());

  std::vector<std::string> libraries;
  for (const auto& in : *inputs) {
    const std::string stem = archive_stem(file_name(archive_of(in.file)));
    if (!stem.empty() && component_of_stem(stem) == stem &&
        std::find(libraries.begin(), libraries.end(), stem) == libraries.end())
      libraries.push_back(stem);
  }
  // Longest first, so "mbedtls_x" is not mistaken for the glue of "mbedtls".
  std::sort(libraries.begin(), libraries.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });

  auto add = [](SizeBreakdown& b, SectionKind kind, uint64_t bytes) {
    switch (kind) {
      case SectionKind::kText: b.text_bytes += bytes; break;
      case SectionKind::kRodata: b.rodata_bytes += bytes; break;
      case SectionKind::kData: b.data_bytes += bytes; break;
      case SectionKind::kBss: b.bss_bytes += bytes; break;
    }
  };

  std::map<std::string, SizeBreakdown> by_component;
  std::map<std::string, uint64_t> attributed;  // per output section
  std::map<std::string, const OutputSection*> by_name;
  for (const auto& s : sections) by_name.emplace(s.name, &s);
  // Input sections in address order (map order where they start together). Mergeable string
  // and constant sections (".rodata.str1.4", ".rodata.cst16") are listed at their size before
  // merging, and the copies the linker merged into an earlier one start at that one's address:
  // an input's bytes end where the next input starts, and bytes already placed are not counted
  // again (they belong to the section that placed them first).
  std::vector<const MapInputSection*> placed;
  for (const auto& in : *inputs)
    if (by_name.count(in.output_section) && in.size_bytes > 0) placed.push_back(&in);
  std::stable_sort(placed.begin(), placed.end(),
                   [](const MapInputSection* a, const MapInputSection* b) {
                     return std::tie(a->output_section, a->address) <
                            std::tie(b->output_section, b->address);
                   });
  std::map<std::string, uint64_t> covered_end;  // per output section: end of the bytes placed
  for (size_t i = 0; i < placed.size(); ++i) {
    const MapInputSection& in = *placed[i];
    const OutputSection& section = *by_name.at(in.output_section);
    uint64_t& covered = covered_end[section.name];
    uint64_t end = in.address + in.size_bytes;
    for (size_t j = i + 1; j < placed.size() && placed[j]->output_section == in.output_section;
         ++j)
      if (placed[j]->address > in.address) {
        end = std::min(end, placed[j]->address);
        break;
      }
    const uint64_t bytes = end > std::max(in.address, covered) ? end - std::max(in.address, covered)
                                                               : 0;
    covered = std::max(covered, end);
    if (bytes == 0) continue;
    uint64_t& sum = attributed[section.name];
    sum += bytes;
    if (sum > section.size_bytes)
      return util::fail(fmt::format(
          "{}:{}: the map puts more bytes into {} than the image's {} bytes: it is not the map "
          "of this image (rebuild the image)",
          display_name, in.line, section.name, section.size_bytes));
    add(by_component[component_of(in.file, libraries)], section.kind, bytes);
  }

  SizeAttribution result;
  for (const auto& s : sections) {
    add(result.total, s.kind, s.size_bytes);
    const uint64_t rest = s.size_bytes - attributed[s.name];
    if (rest > 0) add(by_component[std::string(kOther)], s.kind, rest);
  }
  for (auto& [name, size] : by_component)
    if (size.flash_bytes() + size.ram_bytes() > 0) result.components.push_back({name, size});
  std::stable_sort(result.components.begin(), result.components.end(),
                   [](const ComponentSize& a, const ComponentSize& b) {
                     if (a.size.flash_bytes() != b.size.flash_bytes())
                       return a.size.flash_bytes() > b.size.flash_bytes();
                     if (a.size.ram_bytes() != b.size.ram_bytes())
                       return a.size.ram_bytes() > b.size.ram_bytes();
                     return a.component < b.component;
                   });
  return result;
}

util::Result<SizeAttribution> attribute_image_size(const std::filesystem::path& map_path,
                                                   const ElfImage& image) {
  std::ifstream in(map_path, std::ios::binary);
  if (!in)
    return util::fail(fmt::format("cannot open map file '{}' (link with -Wl,-Map=FILE)",
                                  map_path.string()));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto result = attribute_sizes(text, map_path.string(), output_sections(image));
  if (!result) return result;
  for (const auto& s : image.sections()) {
    if (!s.allocated) continue;
    if (s.name == ".stack") result->stack_reserve_bytes += s.size_bytes;
    if (s.name == ".heap") result->heap_reserve_bytes += s.size_bytes;
  }
  const Symbol* heap_start = image.find_symbol("__heap_start");
  const Symbol* heap_end = image.find_symbol("__heap_end");
  if (result->heap_reserve_bytes == 0 && heap_start && heap_end &&
      heap_end->address >= heap_start->address)
    result->heap_reserve_bytes = heap_end->address - heap_start->address;
  return result;
}

}  // namespace fathom::elf
