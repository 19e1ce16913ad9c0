#include "model/run_result_json.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

namespace fathom::model {
namespace {

using Json = ResultJson;

// ---- writing ----------------------------------------------------------------------------

Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

Json text_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

template <typename T>
Json optional_value(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json statistics(const std::optional<Statistics>& stats) {
  if (!stats) return nullptr;
  Json out;
  out["count"] = stats->count;
  out["median"] = number(stats->median);
  out["p99"] = number(stats->p99);
  out["mean"] = number(stats->mean);
  out["min"] = stats->min;
  out["max"] = stats->max;
  return out;
}

// ---- reading ----------------------------------------------------------------------------

// Thrown inside this file only: the public readers turn it into an error value.
struct BadValue {
  std::string message;  // "<json path>: <problem>"
};

// A value in the document and its JSON path, with checked accessors that throw BadValue.
class Node {
 public:
  Node(const Json& json, std::string path) : json_(json), path_(std::move(path)) {}

  const Json& json() const { return json_; }
  bool is_null() const { return json_.is_null(); }

  [[noreturn]] void fail(const std::string& problem) const {
    throw BadValue{fmt::format("{}: {}", path_.empty() ? "(document)" : path_, problem)};
  }

  // The required member `name` of this object.
  Node at(const char* name) const {
    const auto it = object().find(name);
    if (it == json_.end()) throw BadValue{fmt::format("{}: missing", member_path(name))};
    return Node(*it, member_path(name));
  }
  // The member `name` added after the first schema-1 writer: nothing when absent or null.
  std::optional<Node> later(const char* name) const {
    const auto it = object().find(name);
    if (it == json_.end() || it->is_null()) return std::nullopt;
    return Node(*it, member_path(name));
  }

  std::vector<Node> items() const {
    if (!json_.is_array()) fail("expected a JSON array");
    std::vector<Node> out;
    for (size_t i = 0; i < json_.size(); ++i)
      out.emplace_back(json_[i], fmt::format("{}[{}]", path_, i));
    return out;
  }
  // The members of an object, in document order.
  std::vector<std::pair<std::string, Node>> members(const char* expected) const {
    if (!json_.is_object()) fail(expected);
    std::vector<std::pair<std::string, Node>> out;
    for (const auto& [key, value] : json_.items())
      out.emplace_back(key, Node(value, member_path(key.c_str())));
    return out;
  }

  std::string text() const {
    if (!json_.is_string()) fail("expected a string");
    return json_.get<std::string>();
  }
  // A text the writer writes as null when empty: null or a string.
  std::string text_or_empty() const {
    if (is_null()) return {};
    if (!json_.is_string()) fail("expected a string or null");
    return json_.get<std::string>();
  }
  std::vector<std::string> texts() const {
    bool ok = json_.is_array();
    if (ok)
      for (const auto& item : json_) ok = ok && item.is_string();
    if (!ok) fail("expected an array of strings");
    return json_.get<std::vector<std::string>>();
  }
  bool boolean() const {
    if (!json_.is_boolean()) fail("expected true or false");
    return json_.get<bool>();
  }
  uint64_t unsigned_integer() const {
    if (auto value = as_unsigned()) return *value;
    fail("expected a non-negative integer that fits 64 bits");
  }
  uint32_t unsigned_32() const {
    if (auto value = as_unsigned(); value && *value <= UINT32_MAX)
      return static_cast<uint32_t>(*value);
    fail("expected a non-negative integer that fits 32 bits");
  }
  std::optional<uint64_t> optional_unsigned() const {
    if (is_null()) return std::nullopt;
    if (auto value = as_unsigned()) return value;
    fail("expected null or a non-negative integer that fits 64 bits");
  }
  double finite_number() const {
    if (!json_.is_number() || !std::isfinite(json_.get<double>()))
      fail("expected a finite number");
    return json_.get<double>();
  }

 private:
  std::optional<uint64_t> as_unsigned() const {
    if (json_.is_number_unsigned()) return json_.get<uint64_t>();
    if (json_.is_number_integer() && json_.get<int64_t>() >= 0)
      return static_cast<uint64_t>(json_.get<int64_t>());
    return std::nullopt;
  }
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

// Runs `read` on `json` at `path`, turning a BadValue into an error value.
template <typename Read>
auto checked(const Json& json, std::string_view path, Read read)
    -> util::Result<decltype(read(std::declval<const Node&>()))> {
  try {
    return read(Node(json, std::string(path)));
  } catch (const BadValue& bad) {
    return util::fail(bad.message);
  }
}

std::optional<Statistics> read_statistics(const Node& node) {
  if (node.is_null()) return std::nullopt;
  Statistics s;
  s.count = node.at("count").unsigned_integer();
  s.median = node.at("median").finite_number();
  s.p99 = node.at("p99").finite_number();
  s.mean = node.at("mean").finite_number();
  s.min = node.at("min").unsigned_integer();
  s.max = node.at("max").unsigned_integer();
  if (s.min > s.max) node.fail(fmt::format("min {} is above max {}", s.min, s.max));
  return s;
}

KatStatus read_kat_status(const Node& node) {
  const std::string name = node.text();
  if (auto status = parse_kat_status(name)) return *status;
  node.fail(fmt::format("unknown KAT status '{}'; expected passed, failed or not-run", name));
}

RunsReason read_runs_reason(const Node& node) {
  const std::string name = node.text();
  if (auto reason = parse_runs_reason(name)) return *reason;
  node.fail(fmt::format("unknown runs reason '{}'; expected suite, command-line, fresh-inputs or "
                        "fixed-inputs",
                        name));
}

std::vector<KatVector> read_kat_vectors(const Node& node) {
  std::vector<KatVector> vectors;
  for (const Node& item : node.items()) {
    if (!item.json().is_object()) item.fail("expected a {name, passed} object");
    vectors.push_back(KatVector{item.at("name").text(), item.at("passed").boolean()});
  }
  return vectors;
}

std::vector<uint64_t> read_samples(const Node& node) {
  std::vector<uint64_t> samples;
  for (const Node& item : node.items()) samples.push_back(item.unsigned_integer());
  return samples;
}

// An object of group -> number accepted by `in_range`; null is none.
std::map<std::string, double> read_group_numbers(const Node& node, const char* what,
                                                 const char* expected, bool (*in_range)(double)) {
  std::map<std::string, double> out;
  if (node.is_null()) return out;
  for (const auto& [group, value] :
       node.members(fmt::format("expected an object of group: {}", what).c_str())) {
    const double number = value.json().is_number() ? value.json().get<double>() : -1.0;
    if (!in_range(number)) value.fail(fmt::format("expected {}", expected));
    out[group] = number;
  }
  return out;
}

std::map<std::string, double> read_primitive_share(const Node& node) {
  // Also refuses NaN.
  return read_group_numbers(node, "fraction", "a fraction between 0 and 1",
                            [](double f) { return f >= 0.0 && f <= 1.0; });
}

std::map<std::string, double> read_primitive_calls(const Node& node) {
  // Also refuses NaN and infinity.
  return read_group_numbers(node, "calls per execution", "a non-negative call count",
                            [](double n) { return n >= 0.0 && n < 1e18; });
}

std::map<std::string, uint64_t> read_object_bytes(const Node& node) {
  std::map<std::string, uint64_t> out;
  for (const auto& [object, value] : node.members("expected an object of object name: bytes")) {
    // What the BYTES record allows (docs/PROTOCOL.md).
    const bool valid_name =
        !object.empty() && std::all_of(object.begin(), object.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
        });
    if (!valid_name) node.fail(fmt::format("object name '{}' is not [a-z0-9_]+", object));
    out.emplace(object, value.unsigned_integer());
  }
  return out;
}

// A workflow's objects: "operation.object" -> bytes, in document order.
std::vector<std::pair<std::string, uint64_t>> read_object_list(const Node& node) {
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const auto& [ref, value] : node.members("expected an object of operation.object: bytes"))
    out.emplace_back(ref, value.unsigned_integer());
  return out;
}

Provenance read_provenance(const Node& node) {
  if (!node.json().is_object()) node.fail("expected a JSON object");
  Provenance p;
  p.tool_version = node.at("tool_version").text();
  p.tool_git_revision = node.at("tool_git_revision").text();
  p.compiler = node.at("compiler").text();
  p.cflags = node.at("cflags").texts();
  p.board = node.at("board").text();
  p.core = node.at("core").text();
  p.clock_hz = node.at("clock_hz").unsigned_integer();
  if (auto n = node.later("stack_reserve_bytes")) p.stack_reserve_bytes = n->unsigned_32();
  p.library = node.at("library").text();
  p.library_version = node.at("library_version").text();
  if (auto n = node.later("libc")) p.libc = n->text();
  p.config_defines = node.at("config_defines").texts();
  p.config_undefines = node.at("config_undefines").texts();
  for (const auto& [name, sha256] :
       node.at("source_sha256").members("expected an object whose values are strings"))
    p.source_sha256[name] = sha256.text();
  p.timing_model = node.at("timing_model").text();
  if (auto n = node.later("target")) p.target = n->text();
  if (auto n = node.later("target_details"))
    for (const auto& [key, value] : n->members("expected an object whose values are strings"))
      p.target_details[key] = value.text();
  p.elf_sha256 = node.at("elf_sha256").text();
  p.runs = node.at("runs").unsigned_32();
  p.warmup = node.at("warmup").unsigned_32();
  if (auto n = node.later("isolation")) p.isolation = n->text();
  if (auto n = node.later("run_order")) p.run_order = n->texts();
  if (auto n = node.later("reused_from")) p.reused_from = n->text();
  return p;
}

Fault read_fault(const Node& node) {
  if (!node.json().is_object()) node.fail("expected a JSON object");
  Fault fault;
  fault.kind = node.at("kind").text();
  fault.pc = node.at("pc").unsigned_32();
  fault.function = node.at("function").text_or_empty();
  fault.detail = node.at("detail").text();
  return fault;
}

OperationResult read_operation(const Node& node) {
  OperationResult op;
  op.operation = node.at("operation").text();
  const Node kat = node.at("kat");
  op.kat = read_kat_status(kat.at("status"));
  op.kat_vectors = read_kat_vectors(kat.at("vectors"));
  const Node samples = node.at("samples");
  op.cycle_samples = read_samples(samples.at("cycles"));
  op.instruction_samples = read_samples(samples.at("instructions"));
  const Node stats = node.at("statistics");
  op.cycles = read_statistics(stats.at("cycles"));
  op.instructions = read_statistics(stats.at("instructions"));
  const Node memory = node.at("memory");
  op.peak_stack_bytes = memory.at("peak_stack_bytes").optional_unsigned();
  op.heap_peak_bytes = memory.at("heap_peak_bytes").optional_unsigned();
  op.allocations = memory.at("allocations").optional_unsigned();
  if (auto n = memory.later("heap_start_bytes")) op.heap_start_bytes = n->optional_unsigned();
  if (auto n = memory.later("sim_peak_stack_bytes"))
    op.sim_peak_stack_bytes = n->optional_unsigned();
  if (auto n = memory.later("sim_heap_peak_bytes")) op.sim_heap_peak_bytes = n->optional_unsigned();
  if (auto n = memory.later("sim_allocations")) op.sim_allocations = n->optional_unsigned();
  if (auto n = memory.later("mismatch")) op.memory_mismatch = n->text_or_empty();
  if (auto n = node.later("primitive_share")) op.primitive_share = read_primitive_share(*n);
  if (auto n = node.later("primitive_calls")) op.primitive_calls = read_primitive_calls(*n);
  if (auto n = node.later("distinct_inputs")) op.distinct_inputs = n->unsigned_32();
  if (auto n = node.later("secret_variants")) op.secret_variants = n->unsigned_32();
  if (auto n = node.later("object_bytes")) op.object_bytes = read_object_bytes(*n);
  if (auto n = node.later("runs")) op.requested_runs = n->unsigned_32();
  if (auto n = node.later("runs_reason")) op.runs_reason = read_runs_reason(*n);
  if (auto n = node.later("samples_identical")) op.samples_identical = n->boolean();
  op.error = node.at("error").text_or_empty();
  if (auto n = node.later("not_timed")) op.not_timed = n->text_or_empty();
  return op;
}

ImageResult read_image(const Node& node) {
  ImageResult img;
  img.configuration = node.at("configuration").text();
  img.board = node.at("board").text();
  img.completed = node.at("completed").boolean();
  img.error = node.at("error").text_or_empty();
  if (const Node fault = node.at("fault"); !fault.is_null()) img.fault = read_fault(fault);
  if (const Node size = node.at("size"); !size.is_null())
    img.size = ImageSize{size.at("flash_bytes").unsigned_integer(),
                         size.at("ram_bytes").unsigned_integer()};
  const Node totals = node.at("totals");
  img.total_cycles = totals.at("cycles").unsigned_integer();
  img.total_instructions = totals.at("instructions").unsigned_integer();
  if (auto untimed = totals.later("untimed_instructions"))
    img.untimed_instructions = untimed->unsigned_integer();
  img.provenance = read_provenance(node.at("provenance"));
  for (const Node& op : node.at("operations").items()) img.operations.push_back(read_operation(op));
  for (const Node& line : node.at("console_log").items()) img.console_log.push_back(line.text());
  if (auto check = node.later("cross_check")) {
    CrossCheck c;
    c.target = check->at("target").text();
    c.operations_compared = check->at("operations_compared").unsigned_integer();
    if (auto cycles = check->later("cycle_operations_compared"))
      c.cycle_operations_compared = cycles->unsigned_integer();
    c.differences = check->at("differences").texts();
    if (auto reused = check->later("reused_from"))
      c.reused_from = reused->text();
    img.cross_check = std::move(c);
  }
  return img;
}

FairnessCheck read_fairness(const Node& node) {
  FairnessCheck c;
  c.group = node.at("group").text();
  c.operation = node.at("operation").text();
  c.configurations = node.at("configurations").texts();
  for (const Node& m : node.at("median_cycles").items()) c.median_cycles.push_back(m.finite_number());
  c.spread_percent = node.at("spread_percent").finite_number();
  c.tolerance_percent = node.at("tolerance_percent").finite_number();
  c.passed = node.at("passed").boolean();
  return c;
}

WorkflowResult read_workflow(const Node& node) {
  WorkflowResult w;
  w.workflow = node.at("workflow").text();
  w.variant = node.at("variant").text();
  w.configuration = node.at("configuration").text_or_empty();
  w.board = node.at("board").text_or_empty();
  w.error = node.at("error").text_or_empty();
  if (!w.error.empty()) return w;  // no figures (the writer writes none)
  for (const Node& s : node.at("steps").items()) {
    WorkflowStepResult step;
    step.name = s.at("name").text();
    step.operations = s.at("operations").texts();
    step.cycles = s.at("cycles").finite_number();
    step.peak_stack_bytes = s.at("peak_stack_bytes").unsigned_integer();
    if (auto n = s.later("heap_peak_bytes")) step.heap_peak_bytes = n->unsigned_integer();
    w.steps.push_back(std::move(step));
  }
  w.total_cycles = node.at("total_cycles").finite_number();
  w.clock_hz = node.at("clock_hz").unsigned_integer();
  w.wire_objects = read_object_list(node.at("wire_objects"));
  w.wire_bytes = node.at("wire_bytes").unsigned_integer();
  w.stored_objects = read_object_list(node.at("stored_objects"));
  w.stored_bytes = node.at("stored_bytes").unsigned_integer();
  w.peak_stack_bytes = node.at("peak_stack_bytes").unsigned_integer();
  if (auto n = node.later("heap_peak_bytes")) w.heap_peak_bytes = n->unsigned_integer();
  return w;
}

WorkflowVerdict read_verdict(const Node& node) {
  WorkflowVerdict v;
  v.workflow = node.at("workflow").text();
  v.configuration = node.at("configuration").text();
  v.board = node.at("board").text();
  v.cheapest = node.at("cheapest").text();
  v.cheapest_cycles = node.at("cheapest_cycles").finite_number();
  for (const Node& o : node.at("others").items())
    v.others.push_back(WorkflowVerdict::Other{o.at("variant").text(), o.at("cycles").finite_number(),
                                              o.at("ratio").finite_number(), o.at("tie").boolean()});
  return v;
}

ShardSelection read_selection(const Node& node) {
  ShardSelection s;
  s.suite = node.at("suite").text();
  s.suite_argument = node.at("suite_argument").text();
  s.suite_sha256 = node.at("suite_sha256").text();
  for (const Node& img : node.at("images").items())
    s.images.push_back(SelectedImage{img.at("configuration").text(), img.at("board").text()});
  s.runs = node.at("runs").unsigned_32();
  s.warmup = node.at("warmup").unsigned_32();
  s.operations = node.at("operations").texts();
  s.cycle_budget = node.at("cycle_budget").unsigned_integer();
  s.sim_hooks = node.at("sim_hooks").text();
  s.target = node.at("target").text_or_empty();
  s.cross_check = node.at("cross_check").text_or_empty();
  return s;
}

ShardInfo read_shard(const Node& node) {
  ShardInfo shard;
  const Node index = node.at("index");
  const Node count = node.at("count");
  shard.index = index.unsigned_32();
  shard.count = count.unsigned_32();
  if (shard.count < 1) count.fail("expected at least 1");
  if (shard.index < 1 || shard.index > shard.count)
    index.fail(fmt::format("expected 1 to count ({})", shard.count));
  shard.selection_sha256 = node.at("selection_sha256").text();
  shard.selection = read_selection(node.at("selection"));
  return shard;
}

RunResult read_run(const Node& root) {
  if (!root.json().is_object())
    root.fail("expected a JSON object with schema_version; is this the output of "
              "`fathom run --format json`?");
  if (!root.json().contains("schema_version"))
    root.fail("no schema_version; is this the output of `fathom run --format json`?");
  const Node version = root.at("schema_version");
  if (!version.json().is_number_integer()) version.fail("expected an integer");
  const int64_t schema = version.json().get<int64_t>();
  if (schema > RunResult::kSchemaVersion)
    version.fail(fmt::format("{} is newer than this fathom reads ({}); use a newer fathom", schema,
                             RunResult::kSchemaVersion));
  if (schema < 1) version.fail(fmt::format("{} is not a fathom schema version", schema));
  RunResult out;
  out.suite = root.at("suite").text();
  for (const Node& img : root.at("images").items()) out.images.push_back(read_image(img));
  // The derived analyses came later within schema 1.
  if (auto n = root.later("fairness"))
    for (const Node& c : n->items()) out.fairness.push_back(read_fairness(c));
  if (auto n = root.later("workflows"))
    for (const Node& w : n->items()) out.workflows.push_back(read_workflow(w));
  if (auto n = root.later("workflow_verdicts"))
    for (const Node& v : n->items()) out.workflow_verdicts.push_back(read_verdict(v));
  if (auto n = root.later("shard")) out.shard = read_shard(*n);
  return out;
}

}  // namespace

// ---- writers ----------------------------------------------------------------------------

Json to_json(const Provenance& p) {
  Json out;
  out["tool_version"] = p.tool_version;
  out["tool_git_revision"] = p.tool_git_revision;
  out["compiler"] = p.compiler;
  out["cflags"] = p.cflags;
  out["board"] = p.board;
  out["core"] = p.core;
  out["clock_hz"] = p.clock_hz;
  out["stack_reserve_bytes"] = p.stack_reserve_bytes;
  out["library"] = p.library;
  out["library_version"] = p.library_version;
  out["libc"] = p.libc;
  out["config_defines"] = p.config_defines;
  out["config_undefines"] = p.config_undefines;
  Json sources = Json::object();
  for (const auto& [name, sha256] : p.source_sha256) sources[name] = sha256;  // std::map: sorted
  out["source_sha256"] = std::move(sources);
  out["timing_model"] = p.timing_model;
  out["target"] = p.target;
  Json details = Json::object();
  for (const auto& [key, value] : p.target_details) details[key] = value;  // std::map: sorted
  out["target_details"] = std::move(details);
  out["elf_sha256"] = p.elf_sha256;
  out["runs"] = p.runs;
  out["warmup"] = p.warmup;
  out["isolation"] = p.isolation;
  out["run_order"] = p.run_order;
  // Set when the results come from the result cache: when they were measured.
  out["reused_from"] = text_or_null(p.reused_from);
  return out;
}

Json to_json(const Fault& fault) {
  Json out;
  out["kind"] = fault.kind;
  out["pc"] = fault.pc;
  out["function"] = text_or_null(fault.function);
  out["detail"] = fault.detail;
  return out;
}

Json to_json(const OperationResult& op) {
  // Measured figures only for an operation whose KAT passed in this image.
  const bool kat_passed = op.kat == KatStatus::kPassed;
  Json out;
  out["operation"] = op.operation;
  Json kat;
  kat["status"] = std::string(to_string(op.kat));
  Json vectors = Json::array();
  for (const auto& v : op.kat_vectors)
    vectors.push_back(Json{{"name", v.name}, {"passed", v.passed}});
  kat["vectors"] = std::move(vectors);
  out["kat"] = std::move(kat);
  Json samples;
  samples["cycles"] = kat_passed ? Json(op.cycle_samples) : Json::array();
  samples["instructions"] = kat_passed ? Json(op.instruction_samples) : Json::array();
  out["samples"] = std::move(samples);
  Json stats;
  stats["cycles"] = kat_passed ? statistics(op.cycles) : Json(nullptr);
  stats["instructions"] = kat_passed ? statistics(op.instructions) : Json(nullptr);
  out["statistics"] = std::move(stats);
  Json memory;
  memory["peak_stack_bytes"] = kat_passed ? optional_value(op.peak_stack_bytes) : Json(nullptr);
  memory["heap_peak_bytes"] = kat_passed ? optional_value(op.heap_peak_bytes) : Json(nullptr);
  memory["allocations"] = kat_passed ? optional_value(op.allocations) : Json(nullptr);
  // heap_peak_bytes is above this: what was already in use when the memory run started.
  memory["heap_start_bytes"] = kat_passed ? optional_value(op.heap_start_bytes) : Json(nullptr);
  // The simulator's measurement of the same run and the cross-check (docs/PROFILER.md).
  memory["sim_peak_stack_bytes"] =
      kat_passed ? optional_value(op.sim_peak_stack_bytes) : Json(nullptr);
  memory["sim_heap_peak_bytes"] =
      kat_passed ? optional_value(op.sim_heap_peak_bytes) : Json(nullptr);
  memory["sim_allocations"] = kat_passed ? optional_value(op.sim_allocations) : Json(nullptr);
  memory["mismatch"] = text_or_null(op.memory_mismatch);
  out["memory"] = std::move(memory);
  // Group -> fraction of the operation's cycles under it (std::map: sorted).
  Json share = Json::object();
  if (kat_passed)
    for (const auto& [group, fraction] : op.primitive_share) share[group] = number(fraction);
  out["primitive_share"] = std::move(share);
  // Group -> outermost calls into it per execution of the operation.
  Json calls = Json::object();
  if (kat_passed)
    for (const auto& [group, count] : op.primitive_calls) calls[group] = number(count);
  out["primitive_calls"] = std::move(calls);
  // Number of distinct inputs the samples are over (INPUTS record).
  out["distinct_inputs"] =
      kat_passed && op.distinct_inputs != 0 ? Json(op.distinct_inputs) : Json(nullptr);
  // The secret variants the timed runs took (`fathom ct`, whose measurements the result cache
  // keeps in this form); absent from a plain run's results.
  if (op.secret_variants != 0) out["secret_variants"] = op.secret_variants;
  // The timed runs the host asked for and why (pipeline/run_selection.h), and whether the
  // samples were all equal.
  out["runs"] = op.requested_runs != 0 ? Json(op.requested_runs) : Json(nullptr);
  out["runs_reason"] = op.runs_reason != RunsReason::kUnknown
                           ? Json(std::string(to_string(op.runs_reason)))
                           : Json(nullptr);
  out["samples_identical"] =
      kat_passed && op.samples_identical ? Json(*op.samples_identical) : Json(nullptr);
  // Object name -> bytes, as the library's code defines them (std::map: sorted).
  Json objects = Json::object();
  for (const auto& [object, bytes] : op.object_bytes) objects[object] = bytes;
  out["object_bytes"] = std::move(objects);
  out["not_timed"] = text_or_null(op.not_timed);
  out["error"] = text_or_null(op.error);
  return out;
}

Json to_json(const ImageResult& img) {
  Json out;
  out["configuration"] = img.configuration;
  out["board"] = img.board;
  out["completed"] = img.completed;
  out["error"] = text_or_null(img.error);
  out["fault"] = img.fault ? to_json(*img.fault) : Json(nullptr);
  out["size"] = img.size ? Json{{"flash_bytes", img.size->flash_bytes},
                                {"ram_bytes", img.size->ram_bytes}}
                         : Json(nullptr);
  out["totals"] = Json{{"cycles", img.total_cycles},
                       {"instructions", img.total_instructions},
                       {"untimed_instructions", img.untimed_instructions}};
  out["provenance"] = to_json(img.provenance);
  Json operations = Json::array();
  for (const auto& op : img.operations) operations.push_back(to_json(op));
  out["operations"] = std::move(operations);
  out["console_log"] = img.console_log;
  // The same image on a second target (fathom run --cross-check); null when not asked for.
  out["cross_check"] = img.cross_check
                           ? Json{{"target", img.cross_check->target},
                                  {"operations_compared", img.cross_check->operations_compared},
                                  {"cycle_operations_compared",
                                   img.cross_check->cycle_operations_compared},
                                  {"differences", img.cross_check->differences},
                                  {"reused_from", img.cross_check->reused_from.empty()
                                                      ? Json(nullptr)
                                                      : Json(img.cross_check->reused_from)}}
                           : Json(nullptr);
  return out;
}

Json to_json(const FairnessCheck& c) {
  Json medians = Json::array();
  for (double m : c.median_cycles) medians.push_back(number(m));
  return Json{{"group", c.group},
              {"operation", c.operation},
              {"configurations", c.configurations},
              {"median_cycles", std::move(medians)},
              {"spread_percent", number(c.spread_percent)},
              {"tolerance_percent", number(c.tolerance_percent)},
              {"passed", c.passed}};
}

Json to_json(const WorkflowResult& w) {
  Json entry{{"workflow", w.workflow},
             {"variant", w.variant},
             {"configuration", text_or_null(w.configuration)},
             {"board", text_or_null(w.board)},
             {"error", text_or_null(w.error)}};
  if (!w.error.empty()) return entry;
  Json steps = Json::array();
  for (const auto& s : w.steps)
    steps.push_back(Json{{"name", s.name},
                         {"operations", s.operations},
                         {"cycles", number(s.cycles)},
                         {"peak_stack_bytes", s.peak_stack_bytes},
                         {"heap_peak_bytes", s.heap_peak_bytes}});
  entry["steps"] = std::move(steps);
  entry["total_cycles"] = number(w.total_cycles);
  entry["clock_hz"] = w.clock_hz;
  Json wire = Json::object(), stored = Json::object();
  for (const auto& [ref, bytes] : w.wire_objects) wire[ref] = bytes;
  for (const auto& [ref, bytes] : w.stored_objects) stored[ref] = bytes;
  entry["wire_objects"] = std::move(wire);
  entry["wire_bytes"] = w.wire_bytes;
  entry["stored_objects"] = std::move(stored);
  entry["stored_bytes"] = w.stored_bytes;
  entry["peak_stack_bytes"] = w.peak_stack_bytes;
  entry["heap_peak_bytes"] = w.heap_peak_bytes;
  return entry;
}

Json to_json(const WorkflowVerdict& v) {
  Json others = Json::array();
  for (const auto& o : v.others)
    others.push_back(Json{{"variant", o.variant},
                          {"cycles", number(o.cycles)},
                          {"ratio", number(o.ratio)},
                          {"tie", o.tie}});
  return Json{{"workflow", v.workflow},
              {"configuration", v.configuration},
              {"board", v.board},
              {"cheapest", v.cheapest},
              {"cheapest_cycles", number(v.cheapest_cycles)},
              {"others", std::move(others)}};
}

Json to_json(const ShardSelection& s) {
  Json images = Json::array();
  for (const auto& img : s.images)
    images.push_back(Json{{"configuration", img.configuration}, {"board", img.board}});
  Json out;
  out["suite"] = s.suite;
  out["suite_argument"] = s.suite_argument;
  out["suite_sha256"] = s.suite_sha256;
  out["images"] = std::move(images);
  out["runs"] = s.runs;
  out["warmup"] = s.warmup;
  out["operations"] = s.operations;
  out["cycle_budget"] = s.cycle_budget;
  out["sim_hooks"] = s.sim_hooks;
  out["target"] = text_or_null(s.target);
  out["cross_check"] = text_or_null(s.cross_check);
  return out;
}

Json to_json(const ShardInfo& shard) {
  Json out;
  out["index"] = shard.index;
  out["count"] = shard.count;
  out["selection_sha256"] = shard.selection_sha256;
  out["selection"] = to_json(shard.selection);
  return out;
}

Json to_json(const RunResult& run) {
  Json doc;
  doc["schema_version"] = RunResult::kSchemaVersion;
  doc["suite"] = run.suite;
  Json images = Json::array();
  for (const auto& img : run.images) images.push_back(to_json(img));
  doc["images"] = std::move(images);
  // The fairness control and device workflows (src/analysis), derived from the images above.
  Json fairness = Json::array();
  for (const auto& c : run.fairness) fairness.push_back(to_json(c));
  doc["fairness"] = std::move(fairness);
  Json workflows = Json::array();
  for (const auto& w : run.workflows) workflows.push_back(to_json(w));
  doc["workflows"] = std::move(workflows);
  Json verdicts = Json::array();
  for (const auto& v : run.workflow_verdicts) verdicts.push_back(to_json(v));
  doc["workflow_verdicts"] = std::move(verdicts);
  // Only a shard's result has one (model/shard.h); a whole run's, merged or not, is null.
  doc["shard"] = run.shard ? to_json(*run.shard) : Json(nullptr);
  return doc;
}

std::string dump_json(const Json& json, int indent) {
  return json.dump(indent, ' ', false, Json::error_handler_t::replace);
}

// ---- readers ----------------------------------------------------------------------------

util::Result<RunResult> run_result_from_json(const Json& json) {
  return checked(json, "", read_run);
}

util::Result<ImageResult> image_result_from_json(const Json& json, std::string_view path) {
  return checked(json, path, read_image);
}

util::Result<Provenance> provenance_from_json(const Json& json, std::string_view path) {
  return checked(json, path, read_provenance);
}

util::Result<Fault> fault_from_json(const Json& json, std::string_view path) {
  return checked(json, path, read_fault);
}

util::Result<std::vector<KatVector>> kat_vectors_from_json(const Json& json,
                                                           std::string_view path) {
  return checked(json, path, read_kat_vectors);
}

util::Result<std::vector<uint64_t>> samples_from_json(const Json& json, std::string_view path) {
  return checked(json, path, read_samples);
}

util::Result<std::map<std::string, double>> primitive_share_from_json(const Json& json,
                                                                      std::string_view path) {
  return checked(json, path, read_primitive_share);
}

}  // namespace fathom::model
