#pragma once
// The ARM build attributes of an image (the "aeabi" public subsection of .ARM.attributes, ARM
// IHI 0045 "Addenda to, and Errata in, the ABI for the Arm Architecture"): which architecture
// and profile the code was compiled for, and so which Cortex-M core can run it. Parsed from
// untrusted bytes: every length is checked, and a malformed section is an error, not a guess.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/error.h"

namespace fathom::elf {

struct ArmBuildAttributes {
  std::string cpu_name;                 // Tag_CPU_name (5), e.g. "7E-M", "cortex-m33"
  std::optional<uint32_t> cpu_arch;     // Tag_CPU_arch (6): 11 v6-M, 10 v7, 13 v7E-M, 17 v8-M.main
  std::optional<char> cpu_arch_profile; // Tag_CPU_arch_profile (7): 'M', 'A', 'R', 'S'
  std::optional<uint32_t> fp_arch;      // Tag_FP_arch (10): 0 none
  std::optional<uint32_t> dsp_extension;  // Tag_DSP_extension (46)
};

// Parses the contents of a .ARM.attributes section (format-version 'A').
util::Result<ArmBuildAttributes> parse_arm_build_attributes(const std::vector<uint8_t>& section);

// The fathom core ("cortex-m0plus", "cortex-m3", "cortex-m4", "cortex-m33") for code built
// with these attributes; an error naming the architecture when fathom simulates no such core
// (v8-M baseline, v8.1-M, an A or R profile).
util::Result<std::string> cortex_m_core(const ArmBuildAttributes& attributes);

}  // namespace fathom::elf
