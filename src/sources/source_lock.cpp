#include "sources/source_lock.h"

#include <fmt/core.h>
#include <toml++/toml.h>

#include <fstream>
#include <set>
#include <sstream>
#include "util/source_dir.h"

namespace fathom::sources {
namespace {

constexpr int kSchemaVersion = 1;

std::string where(const std::string& path, const toml::source_region& region) {
  return fmt::format("{}:{}:{}", path, region.begin.line, region.begin.column);
}

bool is_name(std::string_view s) {
  if (s.empty() || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= '0' && s[0] <= '9'))) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'))
      return false;
  }
  return true;
}

// A single path component that is safe to join under the cache directory.
bool is_plain_file_name(std::string_view s) {
  if (s.empty() || s == "." || s == "..") return false;
  for (char c : s) {
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20) return false;
  }
  return true;
}

bool is_env_name(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

bool is_version(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == '+' || c == '~' || c == ':' || c == '_';
    if (!ok) return false;
  }
  return true;
}

bool is_lower_hex64(std::string_view s) {
  if (s.size() != 64) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// Reads one [[source]] table into an entry, checking every key.
util::Result<SourceEntry> read_entry(const toml::table& table, const std::string& path,
                                     std::size_t index) {
  static const std::set<std::string, std::less<>> kKnownKeys = {
      "name",  "version", "origin", "package",    "package_version",
      "suite", "archive", "sha256", "unpacks_to", "env"};
  const std::string table_at = where(path, table.source());
  const std::string what = fmt::format("[[source]] #{}", index + 1);

  for (const auto& [key, node] : table) {
    if (!kKnownKeys.count(key.str())) {
      return util::fail(
          fmt::format("{}: {}: unknown key '{}' (known: name, version, origin, "
                      "package, package_version, suite, archive, sha256, "
                      "unpacks_to, env)",
                      where(path, key.source()), what, key.str()));
    }
    if (!node.is_string()) {
      return util::fail(fmt::format("{}: {}: '{}' must be a string", where(path, node.source()),
                                    what, key.str()));
    }
  }

  auto get = [&](std::string_view key) -> std::string {
    const auto* node = table.get(key);
    return node ? std::string(*node->value<std::string>()) : std::string();
  };
  auto at = [&](std::string_view key) {
    const auto* node = table.get(key);
    return node ? where(path, node->source()) : table_at;
  };
  auto require = [&](std::string_view key) -> util::Result<std::string> {
    if (!table.contains(key)) {
      return util::fail(fmt::format("{}: {}: missing key '{}'", table_at, what, key));
    }
    return get(key);
  };

  SourceEntry entry;
  entry.line = static_cast<int>(table.source().begin.line);
  for (auto [key, field] :
       {std::pair{"name", &entry.name}, std::pair{"version", &entry.version},
        std::pair{"package", &entry.package}, std::pair{"package_version", &entry.package_version},
        std::pair{"archive", &entry.archive}, std::pair{"sha256", &entry.sha256},
        std::pair{"unpacks_to", &entry.unpacks_to}, std::pair{"env", &entry.env}}) {
    auto value = require(key);
    if (!value) return tl::unexpected(value.error());
    *field = std::move(*value);
  }
  auto origin = require("origin");
  if (!origin) return tl::unexpected(origin.error());
  entry.suite = get("suite");

  auto bad = [&](std::string_view key, std::string_view rule) {
    return util::fail(fmt::format("{}: source '{}': '{}' {}", at(key), entry.name, key, rule));
  };
  if (!is_name(entry.name)) {
    return util::fail(
        fmt::format("{}: {}: name '{}' must be lower-case letters, digits, '-', "
                    "'_' or '.'",
                    at("name"), what, entry.name));
  }
  if (!is_version(entry.version)) return bad("version", "must be a version like 3.6.6");
  if (!is_version(entry.package_version)) {
    return bad("package_version", "must be a version like 3.6.6-0.1~deb13u1");
  }
  if (!is_name(entry.package)) return bad("package", "must be a package name");
  if (!is_plain_file_name(entry.archive)) return bad("archive", "must be a file name without '/'");
  if (!is_plain_file_name(entry.unpacks_to)) {
    return bad("unpacks_to", "must be a directory name without '/'");
  }
  if (!is_lower_hex64(entry.sha256)) {
    return bad("sha256", "must be 64 lower-case hex digits (the output of sha256sum)");
  }
  if (!is_env_name(entry.env)) {
    return bad("env", "must be an environment variable name like FATHOM_SOURCE_MBEDTLS");
  }
  if (*origin == "debian-source") {
    entry.origin = Origin::kDebianSource;
    if (!table.contains("suite")) {
      return util::fail(
          fmt::format("{}: source '{}': origin 'debian-source' needs 'suite' "
                      "(e.g. suite = \"trixie\")",
                      table_at, entry.name));
    }
    if (!is_name(entry.suite)) return bad("suite", "must be a Debian suite name like trixie");
  } else if (*origin == "npm") {
    entry.origin = Origin::kNpm;
    if (table.contains("suite"))
      return bad("suite", "is only meaningful for origin 'debian-source'");
  } else {
    return bad("origin", fmt::format("is '{}'; expected 'debian-source' or 'npm'", *origin));
  }
  return entry;
}

}  // namespace

std::string_view origin_name(Origin origin) {
  switch (origin) {
    case Origin::kDebianSource:
      return "debian-source";
    case Origin::kNpm:
      return "npm";
  }
  return "?";
}

const SourceEntry* SourceLock::find(std::string_view name) const {
  for (const auto& entry : sources) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

util::Result<SourceLock> parse_lock(std::string_view text, const std::string& path) {
  toml::table root;
  try {
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    return util::fail(fmt::format("{}: {}", where(path, e.source()), e.description()));
  }

  for (const auto& [key, node] : root) {
    if (key.str() != "schema_version" && key.str() != "source") {
      return util::fail(
          fmt::format("{}: unknown top-level key '{}' (expected schema_version and "
                      "[[source]] tables)",
                      where(path, key.source()), key.str()));
    }
  }
  const auto* schema = root.get("schema_version");
  if (schema == nullptr) {
    return util::fail(fmt::format("{}:1:1: missing 'schema_version = {}'", path, kSchemaVersion));
  }
  if (schema->value<int64_t>() != kSchemaVersion) {
    return util::fail(fmt::format("{}: schema_version must be {} (this fathom reads version {})",
                                  where(path, schema->source()), kSchemaVersion, kSchemaVersion));
  }

  SourceLock lock;
  lock.path = path;
  const auto* list_node = root.get("source");
  if (list_node == nullptr) return lock;
  const auto* list = list_node->as_array();
  if (list == nullptr || !list->is_array_of_tables()) {
    return util::fail(fmt::format("{}: 'source' must be written as [[source]] tables",
                                  where(path, list_node->source())));
  }
  for (std::size_t i = 0; i < list->size(); ++i) {
    const auto& table = *list->get(i)->as_table();
    auto entry = read_entry(table, path, i);
    if (!entry) return tl::unexpected(entry.error());
    if (const auto* previous = lock.find(entry->name)) {
      return util::fail(fmt::format("{}: source '{}' is listed twice (first at line {})",
                                    where(path, table.source()), entry->name, previous->line));
    }
    lock.sources.push_back(std::move(*entry));
  }
  return lock;
}

util::Result<SourceLock> load_lock(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return util::fail(fmt::format("cannot read {}: no such file or not readable", path.string()));
  }
  std::stringstream text;
  text << in.rdbuf();
  return parse_lock(text.str(), path.string());
}

std::filesystem::path default_lock_path() {
  return std::filesystem::path(fathom::util::source_dir()) / "sources.lock";
}

}  // namespace fathom::sources
