#include "cli/output_directory.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <system_error>

namespace fathom::cli {
namespace {

constexpr std::string_view kMeaning =
    "--out names a directory, and fathom writes its files into it (run and merge: results.json "
    "and results.<format>; profile: one file per --format)";

// Extensions of the files fathom writes: a missing --out that ends in one meant a file.
constexpr std::array<std::string_view, 10> kFileExtensions = {
    ".json",      ".csv",  ".md",      ".txt",    ".folded",
    ".callgrind", ".html", ".pqm4-md", ".gbench", ".github-benchmark"};

}  // namespace

util::Result<void> check_output_directory(const std::string& out) {
  namespace fs = std::filesystem;
  if (out.empty()) return util::fail_usage(fmt::format("--out needs a directory; {}", kMeaning));
  std::error_code ec;
  const fs::file_status status = fs::status(out, ec);
  if (fs::exists(status)) {
    if (fs::is_directory(status)) return {};
    return util::fail_usage(
        fmt::format("--out '{}' is a file, not a directory; {}. Give a directory, e.g. --out {}",
                    out, kMeaning, (fs::path(out).parent_path() / "results").string()));
  }
  const std::string extension = fs::path(out).extension().string();
  if (std::find(kFileExtensions.begin(), kFileExtensions.end(), extension) != kFileExtensions.end())
    return util::fail_usage(
        fmt::format("--out '{}' looks like a file name; {}. Give a directory, e.g. --out {}", out,
                    kMeaning, (fs::path(out).parent_path() / "results").string()));
  return {};
}

util::Result<std::filesystem::path> make_output_directory(const std::string& out) {
  if (auto ok = check_output_directory(out); !ok) return tl::unexpected(ok.error());
  std::error_code ec;
  std::filesystem::create_directories(out, ec);
  if (ec)
    return util::fail(fmt::format("cannot create the --out directory '{}': {}", out, ec.message()));
  return std::filesystem::path(out);
}

}  // namespace fathom::cli
