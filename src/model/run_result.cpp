#include "model/run_result.h"

namespace fathom::model {

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
