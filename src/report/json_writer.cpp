#include "report/json_writer.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "report/stack_reserve.h"
#include "report/summary.h"

namespace fathom::report {
namespace {

using Json = nlohmann::ordered_json;

Json number(double value) { return std::isfinite(value) ? Json(value) : Json(nullptr); }

Json text_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json(text); }

template <typename T>
Json optional_value(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

Json statistics(const std::optional<model::Statistics>& stats) {
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

std::string kat_status(model::KatStatus kat) {
  switch (kat) {
    case model::KatStatus::kPassed:
      return "passed";
    case model::KatStatus::kFailed:
      return "failed";
    case model::KatStatus::kNotRun:
      break;
  }
  return "not-run";
}


// The fastest mark of each operation (report/summary.h) across the run's images.
using FastestMarks = std::map<const model::OperationResult*, FastestMark>;

Json operation(const model::OperationResult& op, const FastestMarks& marks) {
  // Measured figures only for an operation whose KAT passed in this image.
  const bool kat_passed = op.kat == model::KatStatus::kPassed;
  Json out;
  out["operation"] = op.operation;
  Json kat;
  kat["status"] = kat_status(op.kat);
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
  // "fastest": the lowest median of this operation on this board, beyond the noise threshold
  // (model::kNoiseThresholdPercent) of every other configuration; "tied": within it of the
  // lowest, as is another; null otherwise or with fewer than two timed configurations.
  const auto mark = marks.find(&op);
  out["fastest"] = mark == marks.end() || mark->second == FastestMark::kNone
                       ? Json(nullptr)
                       : Json(fastest_mark_name(mark->second));
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
  // Group -> fraction of the operation's cycles under it (std::map: sorted); {} when the
  // library defines no groups or the KAT did not pass.
  Json share = Json::object();
  if (kat_passed)
    for (const auto& [group, fraction] : op.primitive_share) share[group] = number(fraction);
  out["primitive_share"] = std::move(share);
  // Group -> outermost calls into it per execution of the operation; {} as above.
  Json calls = Json::object();
  if (kat_passed)
    for (const auto& [group, count] : op.primitive_calls) calls[group] = number(count);
  out["primitive_calls"] = std::move(calls);
  // Number of distinct inputs the samples are over (INPUTS record); null when every run
  // repeated one input.
  out["distinct_inputs"] =
      kat_passed && op.distinct_inputs != 0 ? Json(op.distinct_inputs) : Json(nullptr);
  // Object name -> bytes, as the library's code defines them (std::map: sorted); {} if none.
  Json objects = Json::object();
  for (const auto& [object, bytes] : op.object_bytes) objects[object] = bytes;
  out["object_bytes"] = std::move(objects);
  // Why an operation whose KAT passed has no figures by design (a library gate); null for an
  // ordinary operation. Its samples, statistics and memory figures are then empty / null.
  out["not_timed"] = text_or_null(op.not_timed);
  out["error"] = text_or_null(op.error);
  return out;
}

Json image(const model::ImageResult& img, const FastestMarks& marks) {
  Json out;
  out["configuration"] = img.configuration;
  out["board"] = img.board;
  out["completed"] = img.completed;
  out["error"] = text_or_null(img.error);
  if (img.fault) {
    Json fault;
    fault["kind"] = img.fault->kind;
    fault["pc"] = img.fault->pc;
    fault["function"] = text_or_null(img.fault->function);
    fault["detail"] = img.fault->detail;
    out["fault"] = std::move(fault);
  } else {
    out["fault"] = nullptr;
  }
  if (img.size) {
    out["size"] = Json{{"flash_bytes", img.size->flash_bytes}, {"ram_bytes", img.size->ram_bytes}};
  } else {
    out["size"] = nullptr;
  }
  out["totals"] = Json{{"cycles", img.total_cycles}, {"instructions", img.total_instructions}};
  out["provenance"] = provenance_json(img.provenance);
  Json operations = Json::array();
  for (const auto& op : img.operations) operations.push_back(operation(op, marks));
  out["operations"] = std::move(operations);
  out["console_log"] = img.console_log;
  // The same image on a second target (fathom run --cross-check); null when not asked for.
  if (img.cross_check)
    out["cross_check"] = Json{{"target", img.cross_check->target},
                              {"operations_compared", img.cross_check->operations_compared},
                              {"differences", img.cross_check->differences}};
  else
    out["cross_check"] = nullptr;
  return out;
}

}  // namespace

nlohmann::ordered_json provenance_json(const model::Provenance& p) {
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

void JsonWriter::write(const model::RunResult& run, std::ostream& out) const {
  Json doc;
  doc["schema_version"] = model::RunResult::kSchemaVersion;
  doc["suite"] = run.suite;
  FastestMarks marks;
  for (const auto& row : summarize_run(run, RowOrder::kImage).rows)
    if (row.operation) marks[row.operation] = row.fastest;
  Json images = Json::array();
  for (const auto& img : run.images) images.push_back(image(img, marks));
  doc["images"] = std::move(images);
  // The fairness control and device workflows (src/analysis), derived from the images above.
  Json fairness = Json::array();
  for (const auto& c : run.fairness) {
    Json medians = Json::array();
    for (double m : c.median_cycles) medians.push_back(number(m));
    fairness.push_back(Json{{"group", c.group},
                            {"operation", c.operation},
                            {"configurations", c.configurations},
                            {"median_cycles", std::move(medians)},
                            {"spread_percent", number(c.spread_percent)},
                            {"tolerance_percent", number(c.tolerance_percent)},
                            {"passed", c.passed}});
  }
  doc["fairness"] = std::move(fairness);
  Json workflows = Json::array();
  for (const auto& w : run.workflows) {
    Json entry{{"workflow", w.workflow},
               {"variant", w.variant},
               {"configuration", text_or_null(w.configuration)},
               {"board", text_or_null(w.board)},
               {"error", text_or_null(w.error)}};
    if (w.error.empty()) {
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
    }
    workflows.push_back(std::move(entry));
  }
  doc["workflows"] = std::move(workflows);
  Json verdicts = Json::array();
  for (const auto& v : run.workflow_verdicts) {
    Json others = Json::array();
    for (const auto& o : v.others)
      others.push_back(Json{{"variant", o.variant},
                            {"cycles", number(o.cycles)},
                            {"ratio", number(o.ratio)},
                            {"tie", o.tie}});
    verdicts.push_back(Json{{"workflow", v.workflow},
                            {"configuration", v.configuration},
                            {"board", v.board},
                            {"cheapest", v.cheapest},
                            {"cheapest_cycles", number(v.cheapest_cycles)},
                            {"others", std::move(others)}});
  }
  doc["workflow_verdicts"] = std::move(verdicts);
  // Operations whose peak stack exceeds their board's stack reserve (report/stack_reserve.h).
  Json warnings = Json::array();
  for (const auto& o : stack_overruns(run))
    warnings.push_back(Json{{"kind", "stack-reserve-exceeded"},
                            {"configuration", o.image->configuration},
                            {"board", o.image->board},
                            {"operation", o.operation->operation},
                            {"peak_stack_bytes", o.peak_stack_bytes},
                            {"stack_reserve_bytes", o.stack_reserve_bytes},
                            {"message", stack_overrun_text(o)}});
  doc["warnings"] = std::move(warnings);
  // Replace invalid UTF-8 (e.g. a corrupt console line) instead of throwing.
  out << doc.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace fathom::report
