#pragma once
// How to build a third-party library into firmware: firmware/libs/<name>/library.toml.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "util/error.h"

namespace fathom::build {

struct LibraryDescription {
  std::string name;                        // "mbedtls"
  std::string version;                     // "3.6.6"
  std::string source;                      // entry name in sources.lock
  std::vector<std::string> include_dirs;   // relative to the source root
  std::vector<std::string> sources;        // globs relative to the source root ("library/*.c");
                                           // empty: glue over a library it `uses` only
  std::vector<std::string> exclude;        // file names (relative to the source root) to skip
  std::vector<std::string> glue_sources;   // relative to the library's firmware directory
  // Optional: include directories relative to the library's firmware directory (shared glue
  // headers such as stand-ins for OS headers), searched after the directory itself.
  std::vector<std::string> glue_include_dirs;
  // Optional: flags every file of this library and every file of the image is compiled with
  // (fixed build options such as "-DCONFIG_SAE" or "-include prelude.h"), for libraries whose
  // options are fixed by the port rather than chosen by a configuration.
  std::vector<std::string> cflags;
  // Optional: other libraries of the same image whose headers and options this library's files
  // are compiled with (a protocol implementation over a crypto library: hostap's SAE over Mbed
  // TLS). Each must be the configuration's `library` or another of its `with_libraries`, listed
  // before this one; its archive's options (configuration header, defines) then also select
  // this library's archive.
  std::vector<std::string> uses;
  // Optional: the directory under firmware/workloads/ with this library's operations (default:
  // the library's name). Two ports of one library (hostap over Mbed TLS, over wolfSSL) share
  // one set of workloads.
  std::string workloads;
  // Optional (empty when absent): a library without a config-header mechanism leaves them out,
  // and a configuration's defines/undefines then go on the compiler command line instead.
  std::string config_macro;                // macro naming the user config header
  std::string platform_config;             // header in the firmware directory, included first
  std::string version_macro;               // macro holding the library's version string
  std::filesystem::path directory;         // firmware/libs/<name>
  // [primitive_groups]: group name ("SHA-2", "bignum") -> function-name patterns (exact names
  // or globs with '*' and '?', matched as profile/primitive_share.h says). Optional: empty when
  // the table is absent. Each group has at least one pattern; no pattern is empty or contains
  // whitespace.
  std::map<std::string, std::vector<std::string>> primitive_groups;
  // Optional gate (pipeline/library_gate.h, docs/PROTOCOL.md "Gate operations"): operations
  // that always run and whose KATs must all pass for any operation of an image to keep its
  // timing (wolfCrypt's self-test); `gate_failure` is the error the others then carry
  // ("wolfCrypt self-test failed"). Names are operation names ([a-z0-9_]+).
  std::vector<std::string> gate_operations;
  std::string gate_failure;
};

// Names of the libraries in `<firmware_dir>/libs` (sub-directories with a library.toml), sorted.
std::vector<std::string> list_libraries(const std::filesystem::path& firmware_dir);

// Reads `<firmware_dir>/libs/<name>/library.toml`; an unknown library is an error listing the
// known ones (nearest first).
util::Result<LibraryDescription> load_library(const std::filesystem::path& firmware_dir,
                                              const std::string& name);

// Expands `description.sources` against `source_root`, minus `exclude`, sorted.
util::Result<std::vector<std::filesystem::path>> library_source_files(
    const LibraryDescription& description, const std::filesystem::path& source_root);

}  // namespace fathom::build
