#include "cli/profile_input.h"

#include <fmt/core.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>

namespace fathom::cli {
namespace {

constexpr std::string_view kWhatToGive =
    "give a bare-metal ELF file, or a suite name or .toml suite file with --op";

// "68 65 6c 6c 6f 0a \"hello.\"": the bytes in hex and as text ('.' for the unprintable).
std::string bytes_text(const char* bytes, size_t count) {
  std::string hex, text;
  for (size_t i = 0; i < count; ++i) {
    const auto byte = static_cast<unsigned char>(bytes[i]);
    hex += fmt::format("{}{:02x}", i ? " " : "", byte);
    text += std::isprint(byte) ? static_cast<char>(byte) : '.';
  }
  return fmt::format("{} \"{}\"", hex, text);
}

}  // namespace

util::Result<ProfileInput> classify_profile_input(const std::string& target) {
  namespace fs = std::filesystem;
  if (target.empty()) return ProfileInput::kSuite;
  std::error_code ec;
  const fs::file_status status = fs::status(target, ec);
  if (!fs::exists(status)) {
    // A word such as "default" or "pq" names a suite in suites/.
    if (target.find_first_of("/.") == std::string::npos) return ProfileInput::kSuite;
    return util::fail_usage(fmt::format("{}: no such file", target));
  }
  if (fs::is_directory(status))
    return util::fail_usage(
        fmt::format("{} is a directory, not an ELF file; {}", target, kWhatToGive));
  std::ifstream in(target, std::ios::binary);
  std::array<char, 8> head{};
  in.read(head.data(), head.size());
  const auto count = static_cast<size_t>(in.gcount());
  if (count >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F')
    return ProfileInput::kElf;
  if (fs::path(target).extension() == ".toml") return ProfileInput::kSuite;
  if (!in.is_open()) return util::fail(fmt::format("cannot read {}", target));
  if (count == 0)
    return util::fail_usage(fmt::format("{} is empty, not an ELF file; {}", target, kWhatToGive));
  return util::fail_usage(
      fmt::format("{} is not an ELF file (first bytes {}; an ELF starts with 7f 45 4c 46); {}",
                  target, bytes_text(head.data(), count), kWhatToGive));
}

}  // namespace fathom::cli
