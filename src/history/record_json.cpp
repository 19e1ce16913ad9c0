#include "history/record_json.h"

#include "report/json_writer.h"

#include <fmt/core.h>

#include <nlohmann/json.hpp>

namespace fathom::history {
namespace {

using Json = nlohmann::ordered_json;

std::string dump(const Json& json) {
  return json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// Parses `text`; a JSON error becomes a one-line message naming `what`.
util::Result<Json> parse(const std::string& text, const char* what) {
  Json json = Json::parse(text, nullptr, false);
  if (json.is_discarded()) return util::fail(fmt::format("stored {} is not valid JSON", what));
  return json;
}

// Reads `key` of `object` into `out` if present with the right type.
template <typename T>
bool read(const Json& object, const char* key, T& out) {
  auto it = object.find(key);
  if (it == object.end()) return true;  // absent: keep the default
  try {
    out = it->template get<T>();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

}  // namespace

std::string provenance_to_json(const model::Provenance& p) {
  return dump(report::provenance_json(p));
}

util::Result<model::Provenance> provenance_from_json(const std::string& text) {
  auto json = parse(text, "provenance");
  if (!json) return tl::unexpected(json.error());
  if (!json->is_object()) return util::fail("stored provenance is not a JSON object");
  model::Provenance p;
  const bool ok = read(*json, "tool_version", p.tool_version) &&
                  read(*json, "tool_git_revision", p.tool_git_revision) &&
                  read(*json, "compiler", p.compiler) && read(*json, "cflags", p.cflags) &&
                  read(*json, "board", p.board) && read(*json, "core", p.core) &&
                  read(*json, "clock_hz", p.clock_hz) && read(*json, "library", p.library) &&
                  read(*json, "library_version", p.library_version) &&
                  read(*json, "config_defines", p.config_defines) &&
                  read(*json, "config_undefines", p.config_undefines) &&
                  read(*json, "source_sha256", p.source_sha256) &&
                  read(*json, "timing_model", p.timing_model) &&
                  read(*json, "elf_sha256", p.elf_sha256) && read(*json, "runs", p.runs) &&
                  read(*json, "warmup", p.warmup);
  if (!ok) return util::fail("stored provenance has a field of the wrong type");
  return p;
}

std::string fault_to_json(const model::Fault& fault) {
  Json out;
  out["kind"] = fault.kind;
  out["pc"] = fault.pc;
  out["function"] = fault.function;
  out["detail"] = fault.detail;
  return dump(out);
}

util::Result<model::Fault> fault_from_json(const std::string& text) {
  auto json = parse(text, "fault");
  if (!json) return tl::unexpected(json.error());
  model::Fault fault;
  if (!json->is_object() || !read(*json, "kind", fault.kind) || !read(*json, "pc", fault.pc) ||
      !read(*json, "function", fault.function) || !read(*json, "detail", fault.detail))
    return util::fail("stored fault is not a valid fault object");
  return fault;
}

std::string kat_vectors_to_json(const std::vector<model::KatVector>& vectors) {
  Json out = Json::array();
  for (const auto& v : vectors) out.push_back(Json{{"name", v.name}, {"passed", v.passed}});
  return dump(out);
}

util::Result<std::vector<model::KatVector>> kat_vectors_from_json(const std::string& text) {
  auto json = parse(text, "KAT vectors");
  if (!json) return tl::unexpected(json.error());
  if (!json->is_array()) return util::fail("stored KAT vectors are not a JSON array");
  std::vector<model::KatVector> vectors;
  for (const auto& item : *json) {
    model::KatVector v;
    if (!item.is_object() || !read(item, "name", v.name) || !read(item, "passed", v.passed))
      return util::fail("stored KAT vector is not a {name, passed} object");
    vectors.push_back(std::move(v));
  }
  return vectors;
}

std::string samples_to_json(const std::vector<uint64_t>& samples) { return dump(Json(samples)); }

util::Result<std::vector<uint64_t>> samples_from_json(const std::string& text) {
  auto json = parse(text, "samples");
  if (!json) return tl::unexpected(json.error());
  if (!json->is_array()) return util::fail("stored samples are not a JSON array");
  std::vector<uint64_t> samples;
  samples.reserve(json->size());
  for (const auto& item : *json) {
    if (!item.is_number_unsigned() && !(item.is_number_integer() && item.get<int64_t>() >= 0))
      return util::fail("stored samples hold a value that is not a non-negative integer");
    samples.push_back(item.get<uint64_t>());
  }
  return samples;
}

}  // namespace fathom::history
