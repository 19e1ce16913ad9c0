#include "history/record_json.h"

#include "report/json_writer.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

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

// Strict conversions: a number of another kind (negative, fractional, too large) or another
// JSON type is refused rather than converted, so an edited file never turns into a silent
// wrong value.
bool convert(const Json& v, std::string& out) {
  if (!v.is_string()) return false;
  out = v.get<std::string>();
  return true;
}
bool convert(const Json& v, bool& out) {
  if (!v.is_boolean()) return false;
  out = v.get<bool>();
  return true;
}
bool convert(const Json& v, uint64_t& out) {
  if (v.is_number_unsigned()) {
    out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    out = static_cast<uint64_t>(v.get<int64_t>());
    return true;
  }
  return false;
}
bool convert(const Json& v, uint32_t& out) {
  uint64_t wide = 0;
  if (!convert(v, wide) || wide > UINT32_MAX) return false;
  out = static_cast<uint32_t>(wide);
  return true;
}
bool convert(const Json& v, std::vector<std::string>& out) {
  if (!v.is_array()) return false;
  std::vector<std::string> items;
  for (const auto& item : v) {
    if (!item.is_string()) return false;
    items.push_back(item.get<std::string>());
  }
  out = std::move(items);
  return true;
}
bool convert(const Json& v, std::map<std::string, std::string>& out) {
  if (!v.is_object()) return false;
  std::map<std::string, std::string> items;
  for (const auto& [key, value] : v.items()) {
    if (!value.is_string()) return false;
    items[key] = value.get<std::string>();
  }
  out = std::move(items);
  return true;
}

const char* expected(const std::string&) { return "a string"; }
const char* expected(const bool&) { return "true or false"; }
const char* expected(const uint64_t&) { return "a non-negative integer that fits 64 bits"; }
const char* expected(const uint32_t&) { return "a non-negative integer that fits 32 bits"; }
bool convert(const Json& v, std::optional<uint64_t>& out) {
  if (v.is_null()) {
    out.reset();
    return true;
  }
  uint64_t value = 0;
  if (!convert(v, value)) return false;
  out = value;
  return true;
}
const char* expected(const std::optional<uint64_t>&) {
  return "null or a non-negative integer that fits 64 bits";
}
const char* expected(const std::vector<std::string>&) { return "an array of strings"; }
const char* expected(const std::map<std::string, std::string>&) {
  return "an object whose values are strings";
}

// Reads keys of one JSON object, keeping the first error ("<path>.<key>: expected ...").
class FieldReader {
 public:
  FieldReader(const Json& object, std::string_view path) : object_(object), path_(path) {}

  // Reads `key` into `out` if present; absent keeps the default.
  template <typename T>
  FieldReader& field(const char* key, T& out) {
    if (error_) return *this;
    auto it = object_.find(key);
    if (it == object_.end()) return *this;
    if (!convert(*it, out)) error_ = fmt::format("{}.{}: expected {}", path_, key, expected(out));
    return *this;
  }

  util::Result<bool> result() const {
    if (error_) return util::fail(*error_);
    return true;
  }

 private:
  const Json& object_;
  std::string_view path_;
  std::optional<std::string> error_;
};

util::Error not_an_object(std::string_view path) {
  return util::Error{fmt::format("{}: expected a JSON object", path)};
}

}  // namespace

std::string provenance_to_json(const model::Provenance& p) {
  return dump(report::provenance_json(p));
}

util::Result<model::Provenance> provenance_from_json(const std::string& text) {
  auto json = parse(text, "provenance");
  if (!json) return tl::unexpected(json.error());
  return provenance_from_value(*json, "stored provenance");
}

util::Result<model::Provenance> provenance_from_value(const Json& json, std::string_view path) {
  if (!json.is_object()) return tl::unexpected(not_an_object(path));
  model::Provenance p;
  auto ok = FieldReader(json, path)
                .field("tool_version", p.tool_version)
                .field("tool_git_revision", p.tool_git_revision)
                .field("compiler", p.compiler)
                .field("cflags", p.cflags)
                .field("board", p.board)
                .field("core", p.core)
                .field("clock_hz", p.clock_hz)
                .field("stack_reserve_bytes", p.stack_reserve_bytes)  // absent before it existed
                .field("library", p.library)
                .field("library_version", p.library_version)
                .field("libc", p.libc)  // absent in records made before the libc axis
                .field("config_defines", p.config_defines)
                .field("config_undefines", p.config_undefines)
                .field("source_sha256", p.source_sha256)
                .field("timing_model", p.timing_model)
                .field("target", p.target)  // absent in records made before targets
                .field("target_details", p.target_details)
                .field("elf_sha256", p.elf_sha256)
                .field("runs", p.runs)
                .field("warmup", p.warmup)
                .field("isolation", p.isolation)  // absent in records made before isolation
                .field("run_order", p.run_order)
                .result();
  if (!ok) return tl::unexpected(ok.error());
  // Absent or null: measured in that run (pipeline/result_cache.h).
  if (auto it = json.find("reused_from"); it != json.end() && !it->is_null()) {
    if (!it->is_string())
      return util::fail(fmt::format("{}.reused_from: expected a string or null", path));
    p.reused_from = it->get<std::string>();
  }
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
  return fault_from_value(*json, "stored fault");
}

util::Result<model::Fault> fault_from_value(const Json& json, std::string_view path) {
  if (!json.is_object()) return tl::unexpected(not_an_object(path));
  model::Fault fault;
  FieldReader reader(json, path);
  reader.field("kind", fault.kind).field("pc", fault.pc).field("detail", fault.detail);
  // The results file writes an unknown function as null.
  if (auto it = json.find("function"); it == json.end() || !it->is_null())
    reader.field("function", fault.function);
  auto ok = reader.result();
  if (!ok) return tl::unexpected(ok.error());
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
  return kat_vectors_from_value(*json, "stored KAT vectors");
}

util::Result<std::vector<model::KatVector>> kat_vectors_from_value(const Json& json,
                                                                   std::string_view path) {
  if (!json.is_array()) return util::fail(fmt::format("{}: expected a JSON array", path));
  std::vector<model::KatVector> vectors;
  for (size_t i = 0; i < json.size(); ++i) {
    const std::string item_path = fmt::format("{}[{}]", path, i);
    if (!json[i].is_object())
      return util::fail(fmt::format("{}: expected a {{name, passed}} object", item_path));
    model::KatVector v;
    auto ok = FieldReader(json[i], item_path).field("name", v.name).field("passed", v.passed)
                  .result();
    if (!ok) return tl::unexpected(ok.error());
    vectors.push_back(std::move(v));
  }
  return vectors;
}

std::string samples_to_json(const std::vector<uint64_t>& samples) { return dump(Json(samples)); }

util::Result<std::vector<uint64_t>> samples_from_json(const std::string& text) {
  auto json = parse(text, "samples");
  if (!json) return tl::unexpected(json.error());
  return samples_from_value(*json, "stored samples");
}

util::Result<std::vector<uint64_t>> samples_from_value(const Json& json, std::string_view path) {
  if (!json.is_array()) return util::fail(fmt::format("{}: expected a JSON array", path));
  std::vector<uint64_t> samples(json.size());
  for (size_t i = 0; i < json.size(); ++i)
    if (!convert(json[i], samples[i]))
      return util::fail(
          fmt::format("{}[{}]: expected {}", path, i, expected(samples[i])));
  return samples;
}

std::string simulator_memory_to_json(const model::OperationResult& op) {
  auto optional = [](const std::optional<uint64_t>& v) { return v ? Json(*v) : Json(nullptr); };
  Json out;
  out["sim_peak_stack_bytes"] = optional(op.sim_peak_stack_bytes);
  out["sim_heap_peak_bytes"] = optional(op.sim_heap_peak_bytes);
  out["sim_allocations"] = optional(op.sim_allocations);
  out["mismatch"] = op.memory_mismatch.empty() ? Json(nullptr) : Json(op.memory_mismatch);
  return dump(out);
}

util::Result<void> simulator_memory_from_json(const std::string& text,
                                              model::OperationResult& op) {
  auto json = parse(text, "simulator memory");
  if (!json) return tl::unexpected(json.error());
  return simulator_memory_from_value(*json, "stored simulator memory", op);
}

util::Result<void> simulator_memory_from_value(const Json& json, std::string_view path,
                                               model::OperationResult& op) {
  if (!json.is_object()) return tl::unexpected(not_an_object(path));
  model::OperationResult read;
  FieldReader reader(json, path);
  reader.field("sim_peak_stack_bytes", read.sim_peak_stack_bytes)
      .field("sim_heap_peak_bytes", read.sim_heap_peak_bytes)
      .field("sim_allocations", read.sim_allocations);
  if (auto it = json.find("mismatch"); it != json.end() && !it->is_null())
    reader.field("mismatch", read.memory_mismatch);
  if (auto ok = reader.result(); !ok) return tl::unexpected(ok.error());
  op.sim_peak_stack_bytes = read.sim_peak_stack_bytes;
  op.sim_heap_peak_bytes = read.sim_heap_peak_bytes;
  op.sim_allocations = read.sim_allocations;
  op.memory_mismatch = std::move(read.memory_mismatch);
  return {};
}

std::string primitive_share_to_json(const std::map<std::string, double>& share) {
  Json out = Json::object();
  for (const auto& [group, fraction] : share) out[group] = fraction;  // std::map: sorted
  return dump(out);
}

util::Result<std::map<std::string, double>> primitive_share_from_json(const std::string& text) {
  auto json = parse(text, "primitive share");
  if (!json) return tl::unexpected(json.error());
  return primitive_share_from_value(*json, "stored primitive share");
}

namespace {

// An object of group: number, each number accepted by `in_range` (null reads as none).
util::Result<std::map<std::string, double>> group_numbers_from_value(
    const Json& json, std::string_view path, std::string_view what, std::string_view expected,
    bool (*in_range)(double)) {
  std::map<std::string, double> out;
  if (json.is_null()) return out;
  if (!json.is_object())
    return util::fail(fmt::format("{}: expected an object of group: {}", path, what));
  for (const auto& [group, value] : json.items()) {
    const double number = value.is_number() ? value.get<double>() : -1.0;
    if (!in_range(number))
      return util::fail(fmt::format("{}.{}: expected {}", path, group, expected));
    out[group] = number;
  }
  return out;
}

}  // namespace

util::Result<std::map<std::string, double>> primitive_share_from_value(const Json& json,
                                                                       std::string_view path) {
  // Also refuses NaN.
  return group_numbers_from_value(json, path, "fraction", "a fraction between 0 and 1",
                                  [](double f) { return f >= 0.0 && f <= 1.0; });
}

util::Result<std::map<std::string, double>> primitive_calls_from_value(const Json& json,
                                                                       std::string_view path) {
  // Also refuses NaN and infinity.
  return group_numbers_from_value(json, path, "calls per execution", "a non-negative call count",
                                  [](double n) { return n >= 0.0 && n < 1e18; });
}

std::string object_bytes_to_json(const std::map<std::string, uint64_t>& object_bytes) {
  Json out = Json::object();
  for (const auto& [object, bytes] : object_bytes) out[object] = bytes;  // std::map: sorted
  return dump(out);
}

util::Result<std::map<std::string, uint64_t>> object_bytes_from_value(const Json& json,
                                                                      std::string_view path) {
  std::map<std::string, uint64_t> object_bytes;
  if (json.is_null()) return object_bytes;
  if (!json.is_object())
    return util::fail(fmt::format("{}: expected an object of object name: bytes", path));
  for (const auto& [object, value] : json.items()) {
    const bool valid_name =
        !object.empty() && std::all_of(object.begin(), object.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
    if (!valid_name)
      return util::fail(fmt::format("{}: object name '{}' is not [a-z0-9_]+", path, object));
    uint64_t bytes = 0;
    if (!convert(value, bytes))
      return util::fail(fmt::format("{}.{}: expected {}", path, object, expected(bytes)));
    object_bytes.emplace(object, bytes);
  }
  return object_bytes;
}

}  // namespace fathom::history
