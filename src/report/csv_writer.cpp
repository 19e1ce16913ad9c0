#include "report/csv_writer.h"

#include <fmt/core.h>

#include <set>

#include "report/summary.h"

namespace fathom::report {
namespace {

// RFC 4180: a field containing a comma, quote, CR or LF is quoted, with quotes doubled.
std::string quote(const std::string& field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

void write_record(std::ostream& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out << ',';
    out << quote(fields[i]);
  }
  out << "\r\n";  // RFC 4180 line break
}

std::string optional_text(const std::optional<uint64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

std::string kat_word(model::KatStatus kat) {
  switch (kat) {
    case model::KatStatus::kPassed:
      return "pass";
    case model::KatStatus::kFailed:
      return "fail";
    case model::KatStatus::kNotRun:
      break;
  }
  return "not-run";
}

}  // namespace

void CsvWriter::write(const model::RunResult& run, std::ostream& out) const {
  const Summary summary = summarize_run(run, RowOrder::kImage);
  const bool with_ratio = summary.configuration_count >= 2;
  std::vector<std::string> header = {"suite",
                                     "configuration",
                                     "board",
                                     "operation",
                                     "kat",
                                     "kat_failed_vectors",
                                     "runs",
                                     "distinct_inputs",
                                     "cycles_median",
                                     "cycles_p99",
                                     "cycles_mean",
                                     "cycles_min",
                                     "cycles_max",
                                     "instructions_median",
                                     "time_us"};
  if (with_ratio) header.push_back("ratio");
  for (const char* name : {"peak_stack_bytes", "heap_peak_bytes", "allocations",
                           "heap_start_bytes", "clock_hz", "libc", "image_completed",
                           "image_error", "error", "not_timed"})
    header.push_back(name);
  // One column per primitive-share group of any row, sorted, at the end: a fraction in [0, 1],
  // empty where the row has no share for that group.
  std::set<std::string> share_groups;
  for (const auto& row : summary.rows)
    if (row.timed)
      for (const auto& [group, fraction] : row.operation->primitive_share)
        share_groups.insert(group);
  for (const auto& group : share_groups) header.push_back("primitive_share_" + group);
  write_record(out, header);

  for (const auto& row : summary.rows) {
    const auto& image = *row.image;
    const auto* op = row.operation;
    std::vector<std::string> fields = {run.suite, image.configuration, image.board,
                                       op ? op->operation : ""};
    if (op) {
      std::string failed;
      for (const auto& v : op->kat_vectors)
        if (!v.passed) failed += (failed.empty() ? "" : ";") + v.name;
      fields.push_back(kat_word(op->kat));
      fields.push_back(failed);
    } else {
      fields.insert(fields.end(), {"not-run", ""});
    }
    if (row.cycles_unavailable) {
      // No cycle counter on the target: the cycle and time fields stay empty.
      fields.push_back(std::to_string(op->instructions->count));
      fields.push_back(op->distinct_inputs ? std::to_string(op->distinct_inputs) : "");
      fields.insert(fields.end(), 5, "");
      fields.push_back(plain_number(op->instructions->median));
      fields.push_back("");
    } else if (row.timed) {
      const auto& c = *op->cycles;
      fields.insert(fields.end(),
                    {std::to_string(c.count),
                     // Empty when every run repeated one input (no INPUTS record).
                     op->distinct_inputs ? std::to_string(op->distinct_inputs) : "",
                     plain_number(c.median), plain_number(c.p99),
                     plain_number(c.mean), std::to_string(c.min), std::to_string(c.max)});
      fields.push_back(op->instructions ? plain_number(op->instructions->median) : "");
      fields.push_back(row.time_us ? fmt::format("{:.3f}", *row.time_us) : "");
    } else {
      fields.insert(fields.end(), 9, "");
    }
    if (with_ratio) fields.push_back(row.ratio ? fmt::format("{:.4f}", *row.ratio) : "");
    if (row.kat_passed) {
      fields.insert(fields.end(),
                    {optional_text(op->peak_stack_bytes), optional_text(op->heap_peak_bytes),
                     optional_text(op->allocations), optional_text(op->heap_start_bytes)});
    } else {
      fields.insert(fields.end(), 4, "");
    }
    fields.push_back(image.provenance.clock_hz ? std::to_string(image.provenance.clock_hz) : "");
    fields.push_back(image.provenance.libc);
    fields.push_back(image.completed ? "true" : "false");
    fields.push_back(image.error);
    fields.push_back(op ? op->error : "");
    fields.push_back(op ? op->not_timed : "");
    for (const auto& group : share_groups) {
      std::string cell;
      if (row.timed)  // a timed row has an operation
        if (auto it = op->primitive_share.find(group); it != op->primitive_share.end())
          cell = fmt::format("{:.4f}", it->second);
      fields.push_back(cell);
    }
    write_record(out, fields);
  }
}

}  // namespace fathom::report
