#include "suite/reference_loader.h"

#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "suite/toml_reader.h"

namespace fathom::suite {
namespace {

#define FATHOM_TRY(var, expr) \
  auto var = (expr);          \
  if (!var) return tl::unexpected(std::move(var).error())

constexpr int64_t kMaxCycles = 1'000'000'000'000'000;

std::string check_operation_name(std::string_view name) {
  if (!is_valid_name(name))
    return fmt::format("'{}' is not a valid operation name (lower-case letters, digits, '_', "
                       "'.', '-')",
                       name);
  return "";
}

}  // namespace

util::Result<model::ReferenceSet> parse_reference_set(std::string_view text,
                                                      std::string source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return util::fail(fmt::format("{}: {}", location(source_name, e.source()), e.description()));
  }
  TableReader r(root, source_name, "reference file");
  FATHOM_TRY(schema, r.integer("schema_version", 1, 1));
  if (!*schema)
    return tl::unexpected(r.error_at(nullptr, "missing 'schema_version = 1' (the only version "
                                              "this fathom reads)"));
  model::ReferenceSet set;
  for (auto [key, out] : {std::pair{"name", &set.name}, {"source", &set.source},
                          {"device", &set.device}, {"suite", &set.suite},
                          {"board", &set.board}}) {
    FATHOM_TRY(value, r.required_string(key));
    *out = std::move(*value);
  }
  for (auto [key, out] : {std::pair{"compiler", &set.compiler}, {"statistic", &set.statistic},
                          {"code_differs_in", &set.code_differs_in},
                          {"hashing_group", &set.hashing_group},
                          {"hashing_source", &set.hashing_source}}) {
    FATHOM_TRY(value, r.string(key));
    *out = value->value_or("");
  }
  FATHOM_TRY(cflags, r.string_array("cflags"));
  set.cflags = cflags->value_or(std::vector<std::string>{});
  FATHOM_TRY(notes, r.string_array("notes"));
  set.notes = notes->value_or(std::vector<std::string>{});

  FATHOM_TRY(measurements, r.table_array("measurement"));
  if (!*measurements || (*measurements)->empty())
    return tl::unexpected(r.error_at(nullptr, "no [[measurement]] tables: add at least one "
                                              "(operation, cycles)"));
  size_t index = 0;
  for (const auto& node : **measurements) {
    ++index;
    const toml::table* table = node.as_table();
    if (!table)
      return tl::unexpected(r.error_at(&node, "[[measurement]] must be a table"));
    TableReader m(*table, source_name, fmt::format("[[measurement]] #{}", index));
    FATHOM_TRY(operation, m.required_string("operation"));
    if (auto bad = check_operation_name(*operation); !bad.empty())
      return tl::unexpected(m.error_at_key("operation", bad));
    if (std::any_of(set.measurements.begin(), set.measurements.end(),
                    [&](const auto& x) { return x.operation == *operation; }))
      return tl::unexpected(m.error_at_key(
          "operation", fmt::format("operation '{}' is measured twice; keep one", *operation)));
    FATHOM_TRY(cycles, m.integer("cycles", 1, kMaxCycles));
    if (!*cycles)
      return tl::unexpected(m.error_at(
          nullptr, fmt::format("[[measurement]] '{}' is missing 'cycles'", *operation)));
    FATHOM_TRY(share, m.number("hashing_share_percent", 0.0, 100.0));
    if (!set.hashing_group.empty() && !*share)
      return tl::unexpected(m.error_at(
          nullptr, fmt::format("[[measurement]] '{}' is missing 'hashing_share_percent' (the "
                               "file names a hashing_group)",
                               *operation)));
    if (set.hashing_group.empty() && *share)
      return tl::unexpected(m.error_at_key(
          "hashing_share_percent",
          "'hashing_share_percent' needs a top-level 'hashing_group' (the primitive group the "
          "share covers)"));
    if (auto ok = m.finish(); !ok) return tl::unexpected(ok.error());
    model::ReferenceMeasurement measurement{*operation, static_cast<uint64_t>(**cycles), {}};
    if (*share) measurement.hashing_share = **share / 100.0;
    set.measurements.push_back(std::move(measurement));
  }
  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  return set;
}

util::Result<model::ReferenceSet> load_reference_set(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return util::fail(fmt::format("{}: cannot read the reference measurements file",
                                  path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_reference_set(text.str(), path.string());
}

}  // namespace fathom::suite
