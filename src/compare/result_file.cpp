#include "compare/result_file.h"

#include <fmt/core.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <system_error>
#include <utility>
#include <vector>

#include "history/record_json.h"

namespace fathom::compare {
namespace {

using Json = nlohmann::ordered_json;

// Thrown inside this file only: parse_result_json turns it into an error value.
struct BadValue {
  std::string message;  // "<json path>: <problem>"
};

// A value in the document and its JSON path, with checked accessors that throw BadValue.
class Node {
 public:
  Node(const Json& json, std::string path) : json_(json), path_(std::move(path)) {}

  const Json& json() const { return json_; }
  const std::string& path() const { return path_; }
  bool is_null() const { return json_.is_null(); }

  [[noreturn]] void fail(const std::string& problem) const {
    throw BadValue{fmt::format("{}: {}", path_.empty() ? "(document)" : path_, problem)};
  }

  // The required member `name` of this object.
  Node at(const char* name) const {
    const auto it = object().find(name);
    if (it == json_.end())
      throw BadValue{fmt::format("{}: missing", member_path(name))};
    return Node(*it, member_path(name));
  }
  // The member `name`, or nothing when absent.
  std::optional<Node> find(const char* name) const {
    const auto it = object().find(name);
    if (it == json_.end()) return std::nullopt;
    return Node(*it, member_path(name));
  }

  std::vector<Node> items() const {
    if (!json_.is_array()) fail("expected a JSON array");
    std::vector<Node> out;
    for (size_t i = 0; i < json_.size(); ++i)
      out.emplace_back(json_[i], fmt::format("{}[{}]", path_, i));
    return out;
  }

  std::string text() const {
    if (!json_.is_string()) fail("expected a string");
    return json_.get<std::string>();
  }
  // A string, or "" for null (the writer's "none").
  std::string text_or_empty() const { return is_null() ? std::string() : text(); }
  bool boolean() const {
    if (!json_.is_boolean()) fail("expected true or false");
    return json_.get<bool>();
  }
  uint64_t unsigned_integer() const {
    if (json_.is_number_unsigned()) return json_.get<uint64_t>();
    if (json_.is_number_integer() && json_.get<int64_t>() >= 0)
      return static_cast<uint64_t>(json_.get<int64_t>());
    fail("expected a non-negative integer that fits 64 bits");
  }
  std::optional<uint64_t> optional_unsigned() const {
    if (is_null()) return std::nullopt;
    return unsigned_integer();
  }
  double finite_number() const {
    if (!json_.is_number() || !std::isfinite(json_.get<double>()))
      fail("expected a finite number");
    return json_.get<double>();
  }

  // Unwraps a record_json decoder's result; its message already carries the path.
  template <typename T>
  static T unwrap(util::Result<T> result) {
    if (!result) throw BadValue{result.error().message};
    return std::move(*result);
  }

 private:
  const Json& object() const {
    if (!json_.is_object()) fail("expected a JSON object");
    return json_;
  }
  std::string member_path(const char* name) const {
    return path_.empty() ? std::string(name) : fmt::format("{}.{}", path_, name);
  }

  const Json& json_;
  std::string path_;
};

model::KatStatus kat_status(const Node& node) {
  const std::string status = node.text();
  if (status == "passed") return model::KatStatus::kPassed;
  if (status == "failed") return model::KatStatus::kFailed;
  if (status == "not-run") return model::KatStatus::kNotRun;
  node.fail(fmt::format("unknown KAT status '{}'; expected passed, failed or not-run", status));
}

std::optional<model::Statistics> statistics(const Node& node) {
  if (node.is_null()) return std::nullopt;
  model::Statistics s;
  s.count = node.at("count").unsigned_integer();
  s.median = node.at("median").finite_number();
  s.p99 = node.at("p99").finite_number();
  s.mean = node.at("mean").finite_number();
  s.min = node.at("min").unsigned_integer();
  s.max = node.at("max").unsigned_integer();
  if (s.min > s.max) node.fail(fmt::format("min {} is above max {}", s.min, s.max));
  return s;
}

model::OperationResult operation(const Node& node) {
  model::OperationResult op;
  op.operation = node.at("operation").text();
  const Node kat = node.at("kat");
  op.kat = kat_status(kat.at("status"));
  const Node vectors = kat.at("vectors");
  op.kat_vectors = Node::unwrap(history::kat_vectors_from_value(vectors.json(), vectors.path()));
  const Node samples = node.at("samples");
  const Node cycles = samples.at("cycles");
  const Node instructions = samples.at("instructions");
  op.cycle_samples = Node::unwrap(history::samples_from_value(cycles.json(), cycles.path()));
  op.instruction_samples =
      Node::unwrap(history::samples_from_value(instructions.json(), instructions.path()));
  const Node stats = node.at("statistics");
  op.cycles = statistics(stats.at("cycles"));
  op.instructions = statistics(stats.at("instructions"));
  const Node memory = node.at("memory");
  op.peak_stack_bytes = memory.at("peak_stack_bytes").optional_unsigned();
  op.heap_peak_bytes = memory.at("heap_peak_bytes").optional_unsigned();
  op.allocations = memory.at("allocations").optional_unsigned();
  if (memory.json().contains("heap_start_bytes"))  // absent in files made before isolation
    op.heap_start_bytes = memory.at("heap_start_bytes").optional_unsigned();
  // The simulator's cross-check figures and the primitive share came later within schema 1:
  // optional.
  if (auto ok = history::simulator_memory_from_value(memory.json(), memory.path(), op); !ok)
    throw BadValue{ok.error().message};
  if (auto share = node.find("primitive_share"))
    op.primitive_share =
        Node::unwrap(history::primitive_share_from_value(share->json(), share->path()));
  if (auto calls = node.find("primitive_calls"))
    op.primitive_calls =
        Node::unwrap(history::primitive_calls_from_value(calls->json(), calls->path()));
  // Distinct inputs and object sizes came later within schema 1: optional.
  if (auto inputs = node.find("distinct_inputs"); inputs && !inputs->is_null()) {
    const uint64_t count = inputs->unsigned_integer();
    if (count > UINT32_MAX) inputs->fail("expected a count that fits 32 bits");
    op.distinct_inputs = static_cast<uint32_t>(count);
  }
  if (auto objects = node.find("object_bytes"))
    op.object_bytes =
        Node::unwrap(history::object_bytes_from_value(objects->json(), objects->path()));
  op.error = node.at("error").text_or_empty();
  // Came later within schema 1: optional.
  if (auto not_timed = node.find("not_timed")) op.not_timed = not_timed->text_or_empty();
  return op;
}

model::ImageResult image(const Node& node) {
  model::ImageResult img;
  img.configuration = node.at("configuration").text();
  img.board = node.at("board").text();
  img.completed = node.at("completed").boolean();
  img.error = node.at("error").text_or_empty();
  if (const Node fault = node.at("fault"); !fault.is_null())
    img.fault = Node::unwrap(history::fault_from_value(fault.json(), fault.path()));
  if (const Node size = node.at("size"); !size.is_null())
    img.size = model::ImageSize{size.at("flash_bytes").unsigned_integer(),
                                size.at("ram_bytes").unsigned_integer()};
  const Node totals = node.at("totals");
  img.total_cycles = totals.at("cycles").unsigned_integer();
  img.total_instructions = totals.at("instructions").unsigned_integer();
  const Node provenance = node.at("provenance");
  img.provenance =
      Node::unwrap(history::provenance_from_value(provenance.json(), provenance.path()));
  for (const Node& op : node.at("operations").items()) img.operations.push_back(operation(op));
  for (const Node& line : node.at("console_log").items()) img.console_log.push_back(line.text());
  return img;
}

model::RunResult run(const Node& root) {
  if (!root.json().is_object())
    root.fail("expected a JSON object with schema_version; is this the output of "
              "`fathom run --format json`?");
  const auto version = root.find("schema_version");
  if (!version)
    root.fail("no schema_version; is this the output of `fathom run --format json`?");
  if (!version->json().is_number_integer()) version->fail("expected an integer");
  const int64_t schema = version->json().get<int64_t>();
  if (schema > model::RunResult::kSchemaVersion)
    version->fail(fmt::format("{} is newer than this fathom reads ({}); use a newer fathom",
                              schema, model::RunResult::kSchemaVersion));
  if (schema < 1) version->fail(fmt::format("{} is not a fathom schema version", schema));
  model::RunResult out;
  out.suite = root.at("suite").text();
  for (const Node& img : root.at("images").items()) out.images.push_back(image(img));
  return out;
}

}  // namespace

bool names_result_file(const std::string& text) {
  constexpr std::string_view kSuffix = ".json";
  if (text.size() >= kSuffix.size() &&
      text.compare(text.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0)
    return true;
  std::error_code ec;
  return std::filesystem::is_regular_file(text, ec);
}

util::Result<model::RunResult> parse_result_json(std::string_view text,
                                                 const std::string& display_name) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return util::fail_usage(fmt::format(
        "{}: not valid JSON (byte {}); expected the output of `fathom run --format json`",
        display_name, e.byte));
  } catch (const Json::out_of_range&) {  // a number beyond a double's range, e.g. 1e400
    return util::fail_usage(fmt::format(
        "{}: not valid JSON (a number too large for a double); expected the output of "
        "`fathom run --format json`",
        display_name));
  }
  try {
    return run(Node(json, ""));
  } catch (const BadValue& bad) {
    return util::fail_usage(fmt::format("{}: {}", display_name, bad.message));
  }
}

util::Result<model::RunResult> read_result_file(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status))
    return util::fail_usage(fmt::format(
        "results file '{}' does not exist; give a file written by `fathom run --format json` "
        "or a stored run",
        path.string()));
  if (!std::filesystem::is_regular_file(status))
    return util::fail_usage(
        fmt::format("results file '{}' is not a regular file", path.string()));
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  if (in.is_open()) content << in.rdbuf();
  if (!in.is_open() || in.bad())
    return util::fail(fmt::format("cannot read results file '{}'; check its permissions",
                                  path.string()));
  return parse_result_json(content.str(), path.string());
}

}  // namespace fathom::compare
