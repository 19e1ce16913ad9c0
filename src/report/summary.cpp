#include "report/summary.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace fathom::report {
namespace {

std::string image_label(const model::ImageResult& image) {
  return fmt::format("{} on {}", image.configuration, image.board);
}

std::string fault_text(const model::Fault& fault) {
  std::string text = fmt::format("fault {} at 0x{:08x}", fault.kind, fault.pc);
  if (!fault.function.empty()) text += fmt::format(" in {}", fault.function);
  if (!fault.detail.empty()) text += fmt::format(": {}", fault.detail);
  return text;
}

const model::OperationResult* find_operation(const model::ImageResult& image,
                                             const std::string& name) {
  for (const auto& op : image.operations)
    if (op.operation == name) return &op;
  return nullptr;
}

}  // namespace

std::string with_thousands(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string rounded_with_thousands(double value) {
  return std::isfinite(value) && value >= 0
             ? with_thousands(static_cast<uint64_t>(std::llround(value)))
             : "-";
}

std::string plain_number(double value) {
  if (!std::isfinite(value)) return "";
  if (value == std::floor(value) && std::fabs(value) < 1e18)
    return fmt::format("{}", static_cast<long long>(value));
  return fmt::format("{}", value);
}

std::string kat_text(const model::OperationResult& op) {
  switch (op.kat) {
    case model::KatStatus::kPassed:
      return "pass";
    case model::KatStatus::kNotRun:
      return "not run";
    case model::KatStatus::kFailed:
      break;
  }
  std::vector<std::string> failed;
  for (const auto& v : op.kat_vectors)
    if (!v.passed) failed.push_back(v.name);
  if (failed.empty()) return "FAIL";
  return fmt::format("FAIL: {}", fmt::join(failed, ", "));
}

std::string fastest_mark_name(FastestMark mark) {
  switch (mark) {
    case FastestMark::kFastest:
      return "fastest";
    case FastestMark::kTied:
      return "tied";
    case FastestMark::kNone:
      break;
  }
  return "";
}

std::string row_note(const SummaryRow& row) {
  if (!row.operation) return row.image->error.empty() ? "no operations ran" : row.image->error;
  if (!row.operation->error.empty()) return row.operation->error;
  if (!row.operation->not_timed.empty()) return "not timed: " + row.operation->not_timed;
  if (row.timed) return "";
  switch (row.operation->kat) {
    case model::KatStatus::kFailed:
      return "KAT failed";
    case model::KatStatus::kNotRun:
      return "KAT not run";
    case model::KatStatus::kPassed:
      return "no timed runs";
  }
  return "";
}

bool any_cycles_unavailable(const Summary& summary) {
  return std::any_of(summary.rows.begin(), summary.rows.end(),
                     [](const SummaryRow& row) { return row.cycles_unavailable; });
}

Summary summarize_run(const model::RunResult& run, RowOrder order) {
  Summary summary;
  std::vector<std::string> configurations, boards, operations;
  auto add_unique = [](std::vector<std::string>& list, const std::string& name) {
    if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
  };
  for (const auto& image : run.images) {
    add_unique(configurations, image.configuration);
    add_unique(boards, image.board);
    for (const auto& op : image.operations) add_unique(operations, op.operation);
  }
  summary.configuration_count = configurations.size();
  summary.board_count = boards.size();

  auto make_row = [&](const model::ImageResult& image, const model::OperationResult* op) {
    SummaryRow row;
    row.image = &image;
    row.operation = op;
    if (!op) return row;
    row.kat_passed = op->kat == model::KatStatus::kPassed;
    row.timed = op->is_measured();
    row.cycles_unavailable = op->has_instructions_only();
    if (!row.timed || row.cycles_unavailable) return row;
    const double median = op->cycles->median;
    if (image.provenance.clock_hz > 0)
      row.time_us = median * 1e6 / static_cast<double>(image.provenance.clock_hz);
    // Baseline: the first configuration's image on the same board.
    for (const auto& base_image : run.images) {
      if (base_image.configuration != configurations.front() || base_image.board != image.board)
        continue;
      const auto* base = find_operation(base_image, op->operation);
      if (base && base->has_timing() && base->cycles->median > 0)
        row.ratio = median / base->cycles->median;
      break;
    }
    return row;
  };

  if (order == RowOrder::kImage) {
    for (const auto& image : run.images) {
      if (image.operations.empty()) summary.rows.push_back(make_row(image, nullptr));
      for (const auto& op : image.operations) summary.rows.push_back(make_row(image, &op));
    }
  } else {
    for (const auto& board : boards) {
      for (const auto& name : operations)
        for (const auto& image : run.images)
          if (image.board == board)
            if (const auto* op = find_operation(image, name))
              summary.rows.push_back(make_row(image, op));
      for (const auto& image : run.images)
        if (image.board == board && image.operations.empty())
          summary.rows.push_back(make_row(image, nullptr));
    }
  }

  // The fastest configuration per (board, operation).
  std::map<std::pair<std::string, std::string>, std::vector<SummaryRow*>> groups;
  for (auto& row : summary.rows)
    if (row.timed && !row.cycles_unavailable) groups[{row.image->board, row.operation->operation}].push_back(&row);
  for (auto& [key, rows] : groups) {
    if (rows.size() < 2) continue;
    double best = rows.front()->operation->cycles->median;
    for (const auto* r : rows) best = std::min(best, r->operation->cycles->median);
    // Within the noise threshold of the best: as fast as it.
    const auto within = [&](const SummaryRow* r) {
      return (r->operation->cycles->median - best) * 100.0 <= model::kNoiseThresholdPercent * best;
    };
    const auto level = static_cast<size_t>(std::count_if(rows.begin(), rows.end(), within));
    for (auto* r : rows)
      if (within(r)) r->fastest = level == 1 ? FastestMark::kFastest : FastestMark::kTied;
  }

  for (const auto& image : run.images) {
    const std::string label = image_label(image);
    if (image.fault)
      summary.problems.push_back(fmt::format("{}: {}", label, fault_text(*image.fault)));
    if (!image.error.empty() && (!image.fault || image.error != fault_text(*image.fault)))
      summary.problems.push_back(fmt::format("{}: {}", label, image.error));
    if (!image.completed && !image.fault && image.error.empty())
      summary.problems.push_back(fmt::format("{}: did not complete", label));
    for (const auto& op : image.operations)
      if (op.kat == model::KatStatus::kFailed)
        summary.problems.push_back(
            fmt::format("{}: {} known-answer test {}", label, op.operation, kat_text(op)));
  }
  return summary;
}

}  // namespace fathom::report
