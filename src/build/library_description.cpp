#include "build/library_description.h"

#include "util/glob.h"
#include "util/name_suggestion.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <toml++/toml.h>

namespace fathom::build {
namespace fs = std::filesystem;

namespace {

util::Result<std::vector<std::string>> string_list(const toml::table& t, const char* key,
                                                   const std::string& where) {
  std::vector<std::string> out;
  const toml::node* node = t.get(key);
  if (!node) return out;
  const toml::array* arr = node->as_array();
  if (!arr) return util::fail(fmt::format("{}: '{}' must be an array of strings", where, key));
  for (const auto& item : *arr) {
    auto s = item.value<std::string>();
    if (!s) return util::fail(fmt::format("{}: '{}' must be an array of strings", where, key));
    out.push_back(*s);
  }
  return out;
}

// Reads the optional [primitive_groups] table: every value a non-empty array of patterns.
util::Result<std::map<std::string, std::vector<std::string>>> primitive_groups(
    const toml::table& t, const std::string& where) {
  std::map<std::string, std::vector<std::string>> groups;
  const toml::node* node = t.get("primitive_groups");
  if (!node) return groups;
  auto at = [&](const toml::node& n) {
    const auto& b = n.source().begin;
    return b.line ? fmt::format("{}:{}:{}", where, b.line, b.column) : where;
  };
  const toml::table* table = node->as_table();
  if (!table)
    return util::fail(fmt::format("{}: 'primitive_groups' must be a table of group = [function "
                                  "patterns]",
                                  at(*node)));
  for (const auto& [key, value] : *table) {
    const std::string group(key.str());
    const std::string what = fmt::format("primitive_groups.\"{}\"", group);
    if (group.empty())
      return util::fail(fmt::format("{}: {}: a group needs a name", at(value), what));
    const toml::array* arr = value.as_array();
    if (!arr)
      return util::fail(fmt::format("{}: {} must be an array of function-name patterns",
                                    at(value), what));
    if (arr->empty())
      return util::fail(fmt::format("{}: {} is empty: list at least one function name or "
                                    "pattern, or remove the group",
                                    at(value), what));
    std::vector<std::string>& patterns = groups[group];
    for (const auto& item : *arr) {
      auto s = item.value<std::string>();
      if (!s)
        return util::fail(fmt::format("{}: {} must be an array of strings (function names or "
                                      "patterns such as \"mbedtls_sha256*\")",
                                      at(item), what));
      const bool blank = std::any_of(s->begin(), s->end(), [](char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
      });
      if (s->empty() || blank)
        return util::fail(fmt::format("{}: {}: '{}' is not a function-name pattern (no empty "
                                      "patterns, no whitespace)",
                                      at(item), what, *s));
      patterns.push_back(*s);
    }
  }
  return groups;
}

}  // namespace

std::vector<std::string> list_libraries(const fs::path& firmware_dir) {
  std::vector<std::string> known;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(firmware_dir / "libs", ec))
    if (fs::exists(e.path() / "library.toml")) known.push_back(e.path().filename().string());
  std::sort(known.begin(), known.end());
  return known;
}

util::Result<LibraryDescription> load_library(const fs::path& firmware_dir,
                                              const std::string& name) {
  const fs::path dir = firmware_dir / "libs" / name;
  const fs::path file = dir / "library.toml";
  if (!fs::exists(file))
    return util::fail(
        util::unknown_name_message("library", "libraries", name, list_libraries(firmware_dir)));
  toml::table t;
  try {
    t = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    return util::fail(fmt::format("{}:{}:{}: {}", file.string(), e.source().begin.line,
                                  e.source().begin.column, e.description()));
  }
  const std::string where = file.string();
  LibraryDescription d;
  d.directory = dir;
  auto str = [&](const char* key, std::string& out) -> util::Result<void> {
    auto v = t[key].value<std::string>();
    if (!v) return util::fail(fmt::format("{}: missing string '{}'", where, key));
    out = *v;
    return {};
  };
  for (auto [key, out] : {std::pair{"name", &d.name}, {"version", &d.version},
                          {"source", &d.source}}) {
    if (auto r = str(key, *out); !r) return tl::unexpected(r.error());
  }
  for (auto [key, out] : {std::pair{"config_macro", &d.config_macro},
                          {"platform_config", &d.platform_config},
                          {"version_macro", &d.version_macro},
                          {"gate_failure", &d.gate_failure},
                          {"workloads", &d.workloads}}) {
    if (!t.contains(key)) continue;  // optional
    if (auto r = str(key, *out); !r) return tl::unexpected(r.error());
  }
  for (auto [key, out] : {std::pair{"include_dirs", &d.include_dirs}, {"sources", &d.sources},
                          {"exclude", &d.exclude}, {"glue_sources", &d.glue_sources},
                          {"gate_operations", &d.gate_operations},
                          {"glue_include_dirs", &d.glue_include_dirs},
                          {"cflags", &d.cflags}, {"uses", &d.uses}}) {
    auto list = string_list(t, key, where);
    if (!list) return tl::unexpected(list.error());
    *out = std::move(*list);
  }
  for (const auto& gate : d.gate_operations) {
    const bool valid = !gate.empty() && std::all_of(gate.begin(), gate.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!valid)
      return util::fail(fmt::format("{}: gate_operations: '{}' is not an operation name (use "
                                    "[a-z0-9_]+, as the workload's .name)",
                                    where, gate));
  }
  if (d.workloads.empty()) d.workloads = name;
  if (d.workloads.find('/') != std::string::npos || d.workloads.find("..") != std::string::npos)
    return util::fail(fmt::format("{}: workloads: '{}' must be a directory name under "
                                  "firmware/workloads/ (no '/' or '..')",
                                  where, d.workloads));
  for (const auto& used : d.uses)
    if (used == name)
      return util::fail(fmt::format("{}: uses: a library cannot use itself", where));
  auto groups = primitive_groups(t, where);
  if (!groups) return tl::unexpected(groups.error());
  d.primitive_groups = std::move(*groups);
  if (d.name != name)
    return util::fail(fmt::format("{}: name '{}' does not match its directory '{}'", where,
                                  d.name, name));
  return d;
}

util::Result<std::vector<fs::path>> library_source_files(const LibraryDescription& d,
                                                         const fs::path& root) {
  std::vector<fs::path> files;
  for (const auto& pattern : d.sources) {
    const fs::path p(pattern);
    const fs::path dir = root / p.parent_path();
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      return util::fail(fmt::format("library {}: directory '{}' not found in source tree '{}' "
                                    "(is it really {} {}?)",
                                    d.name, p.parent_path().string(), root.string(), d.name,
                                    d.version));
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (!e.is_regular_file()) continue;
      if (!util::glob_match(p.filename().string(), e.path().filename().string())) continue;
      const std::string rel = (p.parent_path() / e.path().filename()).string();
      if (std::find(d.exclude.begin(), d.exclude.end(), rel) != d.exclude.end()) continue;
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  // `sources = []` is a layer of glue over another library (`uses`): an empty archive.
  if (files.empty() && !d.sources.empty())
    return util::fail(fmt::format("library {}: no source files match {} in '{}'", d.name,
                                  fmt::join(d.sources, ", "), root.string()));
  return files;
}

}  // namespace fathom::build
