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

}  // namespace

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
