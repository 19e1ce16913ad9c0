#include "util/run_meter.h"

namespace fathom::util {

std::atomic<uint64_t>* RunMeter::add_counter() {
  std::lock_guard lock(mutex_);
  return &counters_.emplace_back(0);
}

uint64_t RunMeter::instructions() const {
  std::lock_guard lock(mutex_);
  uint64_t sum = 0;
  for (const auto& c : counters_) sum += c.load(std::memory_order_relaxed);
  return sum;
}

void RunMeter::set_activity(size_t machine, std::string what) {
  std::lock_guard lock(mutex_);
  if (what.empty()) activities_.erase(machine);
  else activities_[machine] = std::move(what);
}

std::string RunMeter::activity() const {
  std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& [machine, what] : activities_) out += (out.empty() ? "" : ", ") + what;
  return out;
}

}  // namespace fathom::util
