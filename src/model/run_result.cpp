#include "model/run_result.h"

#include <array>
#include <utility>

namespace fathom::model {
namespace {

constexpr std::array<std::pair<KatStatus, std::string_view>, 3> kKatStatusNames{{
    {KatStatus::kNotRun, "not-run"},
    {KatStatus::kPassed, "passed"},
    {KatStatus::kFailed, "failed"},
}};

struct RunsReasonNames {
  RunsReason reason;
  std::string_view name;
  std::string_view text;
};
constexpr std::array<RunsReasonNames, 4> kRunsReasonNames{{
    {RunsReason::kSuite, "suite", "suite"},
    {RunsReason::kCommandLine, "command-line", "command line"},
    {RunsReason::kFreshInputs, "fresh-inputs", "suite: declared in fresh_inputs"},
    {RunsReason::kFixedInputs, "fixed-inputs", "deterministic target: inputs fixed per run"},
}};

}  // namespace

std::string_view to_string(RunsReason reason) {
  for (const auto& r : kRunsReasonNames)
    if (r.reason == reason) return r.name;
  return "";
}

std::optional<RunsReason> parse_runs_reason(std::string_view name) {
  for (const auto& r : kRunsReasonNames)
    if (r.name == name) return r.reason;
  return std::nullopt;
}

std::string_view runs_reason_text(RunsReason reason) {
  for (const auto& r : kRunsReasonNames)
    if (r.reason == reason) return r.text;
  return "";
}

std::string_view to_string(KatStatus kat) {
  for (const auto& [status, name] : kKatStatusNames)
    if (status == kat) return name;
  return "not-run";  // unreachable for a valid enumerator
}

std::optional<KatStatus> parse_kat_status(std::string_view name) {
  for (const auto& [status, text] : kKatStatusNames)
    if (text == name) return status;
  return std::nullopt;
}

bool RunResult::all_passed() const {
  for (const auto& image : images) {
    if (!image.completed || !image.error.empty()) return false;
    if (image.cross_check && !image.cross_check->differences.empty()) return false;
    for (const auto& op : image.operations)
      if (op.kat != KatStatus::kPassed || !op.memory_mismatch.empty()) return false;
  }
  for (const auto& check : fairness)
    if (!check.passed) return false;
  return true;
}

}  // namespace fathom::model
