#include "elf/build_attributes.h"

#include <fmt/core.h>

namespace fathom::elf {
namespace {

// A cursor over [at, end) that fails instead of reading past the end.
struct Reader {
  const std::vector<uint8_t>& bytes;
  size_t at;
  size_t end;

  bool uleb(uint32_t* out) {
    uint64_t value = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (at >= end) return false;
      const uint8_t b = bytes[at++];
      value |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        if (value > 0xffffffffu) return false;
        *out = static_cast<uint32_t>(value);
        return true;
      }
    }
    return false;
  }
  bool ntbs(std::string* out) {
    const size_t start = at;
    while (at < end && bytes[at] != 0) ++at;
    if (at >= end) return false;
    out->assign(bytes.begin() + static_cast<std::ptrdiff_t>(start),
                bytes.begin() + static_cast<std::ptrdiff_t>(at));
    ++at;
    return true;
  }
  bool u32(uint32_t* out) {
    if (end - at < 4) return false;
    *out = uint32_t{bytes[at]} | uint32_t{bytes[at + 1]} << 8 | uint32_t{bytes[at + 2]} << 16 |
           uint32_t{bytes[at + 3]} << 24;
    at += 4;
    return true;
  }
};

}  // namespace

util::Result<ArmBuildAttributes> parse_arm_build_attributes(const std::vector<uint8_t>& section) {
  auto bad = [](const std::string& what) {
    return util::fail(fmt::format("malformed .ARM.attributes section: {}", what));
  };
  ArmBuildAttributes out;
  if (section.empty() || section[0] != 'A') return bad("no format version 'A'");
  size_t at = 1;
  while (at < section.size()) {
    Reader sub{section, at, section.size()};
    uint32_t length = 0;
    if (!sub.u32(&length) || length < 4 || length > section.size() - at)
      return bad(fmt::format("subsection at offset {} has a bad length", at));
    const size_t sub_end = at + length;
    sub.end = sub_end;
    std::string vendor;
    if (!sub.ntbs(&vendor)) return bad("subsection without a vendor name");
    if (vendor == "aeabi") {
      while (sub.at < sub_end) {
        const size_t tag_start = sub.at;
        uint32_t tag = 0, size = 0;
        if (!sub.uleb(&tag) || !sub.u32(&size) || size < 5 || size > sub_end - tag_start)
          return bad(fmt::format("attribute block at offset {} has a bad size", tag_start));
        const size_t block_end = tag_start + size;
        if (tag == 1) {  // Tag_File: the attributes of the whole file
          Reader r{section, sub.at, block_end};
          while (r.at < block_end) {
            uint32_t attribute = 0;
            if (!r.uleb(&attribute)) return bad("truncated attribute tag");
            uint32_t number = 0;
            std::string text;
            bool ok;
            if (attribute == 4 || attribute == 5 || attribute == 67) {
              ok = r.ntbs(&text);
            } else if (attribute == 32) {  // Tag_compatibility: a number and a string
              ok = r.uleb(&number) && r.ntbs(&text);
            } else if (attribute < 32 || attribute % 2 == 0) {
              ok = r.uleb(&number);
            } else {
              ok = r.ntbs(&text);
            }
            if (!ok) return bad(fmt::format("truncated value of attribute {}", attribute));
            switch (attribute) {
              case 5: out.cpu_name = text; break;
              case 6: out.cpu_arch = number; break;
              case 7: out.cpu_arch_profile = static_cast<char>(number); break;
              case 10: out.fp_arch = number; break;
              case 46: out.dsp_extension = number; break;
              default: break;
            }
          }
        }
        sub.at = block_end;
      }
    }
    at = sub_end;
  }
  return out;
}

util::Result<std::string> cortex_m_core(const ArmBuildAttributes& a) {
  if (!a.cpu_arch)
    return util::fail("the ELF's build attributes do not name its architecture (Tag_CPU_arch)");
  const char profile = a.cpu_arch_profile.value_or('\0');
  switch (*a.cpu_arch) {
    case 11:  // v6-M
    case 12:  // v6S-M
      return std::string("cortex-m0plus");
    case 10:  // v7: v7-M with the microcontroller profile
      if (profile == 'M') return std::string("cortex-m3");
      break;
    case 13:  // v7E-M
      return std::string("cortex-m4");
    case 17:  // v8-M mainline
      return std::string("cortex-m33");
    default: break;
  }
  static const char* names[] = {"pre-v4", "v4",     "v4T",     "v5T",       "v5TE",
                                "v5TEJ",  "v6",     "v6KZ",    "v6T2",      "v6K",
                                "v7",     "v6-M",   "v6S-M",   "v7E-M",     "v8-A",
                                "v8-R",   "v8-M.baseline", "v8-M.mainline", "v8.1-A",
                                "v8.2-A", "v8.3-A", "v8.1-M.mainline", "v9-A"};
  const std::string arch = *a.cpu_arch < std::size(names)
                               ? names[*a.cpu_arch]
                               : fmt::format("architecture {}", *a.cpu_arch);
  return util::fail(fmt::format(
      "the ELF was built for Arm {}{} ({}), which fathom does not simulate (it has Cortex-M0+, "
      "M3, M4 and M33 models: v6-M, v7-M, v7E-M, v8-M.mainline)",
      arch, profile ? fmt::format(" profile {}", profile) : "",
      a.cpu_name.empty() ? "Tag_CPU_name absent" : "Tag_CPU_name " + a.cpu_name));
}

}  // namespace fathom::elf
