#include "util/core_budget.h"

#include <algorithm>

namespace fathom::util {

void CoreBudget::take() {
  std::unique_lock lock(mutex_);
  freed_.wait(lock, [&] { return free_ > 0; });
  --free_;
}

unsigned CoreBudget::try_take(unsigned most) {
  std::lock_guard lock(mutex_);
  const unsigned taken = std::min(most, free_);
  free_ -= taken;
  return taken;
}

void CoreBudget::give(unsigned count) {
  {
    std::lock_guard lock(mutex_);
    free_ += count;
  }
  freed_.notify_all();
}

}  // namespace fathom::util
