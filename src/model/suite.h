#pragma once
// What to measure: configurations × operations × boards, as read from a suite file.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace fathom::model {

// One firmware configuration: a library plus options, built into one image per board.
struct Configuration {
  std::string name;                 // "mbedtls-no-nist-optim"
  std::string library;              // "mbedtls"
  std::string description;
  std::vector<std::string> defines;    // library config macros to define: "NAME" or "NAME=VALUE"
  std::vector<std::string> undefines;  // library config macros to #undef
  std::vector<std::string> cflags;     // extra compiler flags (defaults: -O2)
  std::vector<std::string> harness_defines;  // harness-only macros (test hooks)
  // Properties the linked ELF must have; checked after linking (symbol names).
  std::vector<std::string> expect_symbols_present;
  std::vector<std::string> expect_symbols_absent;
};

struct Suite {
  std::string name;
  std::string description;
  std::filesystem::path path;          // the file it was read from
  std::vector<std::string> boards;     // at least one
  std::vector<Configuration> configurations;
  std::vector<std::string> operations; // empty = all operations the library offers
  uint32_t runs = 10;                  // timed runs per operation
  uint32_t warmup = 1;                 // untimed runs before them
  uint64_t cycle_budget = 50'000'000'000ULL;  // per image; exceeding it is a fault
};

}  // namespace fathom::model
