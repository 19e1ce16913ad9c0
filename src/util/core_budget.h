#pragma once
// The cores one fathom command may keep busy at once (`-j`), shared by everything it runs in
// parallel: the suite runner holds one per image it works on, and a simulator run borrows the
// spare ones for its operations' isolated slots (target/sim/slot_run.h), so a suite's last,
// longest image still uses every core. Thread-safe.
#include <condition_variable>
#include <mutex>

namespace fathom::util {

class CoreBudget {
 public:
  explicit CoreBudget(unsigned cores) : free_(cores == 0 ? 1 : cores) {}
  CoreBudget(const CoreBudget&) = delete;
  CoreBudget& operator=(const CoreBudget&) = delete;

  // Takes one core, waiting until one is free.
  void take();
  // Takes up to `most` cores that are free now (none: 0); never waits.
  unsigned try_take(unsigned most);
  // Gives back `count` taken cores.
  void give(unsigned count);

  // Holds one core for its lifetime (take() ... give(1)).
  class Held {
   public:
    explicit Held(CoreBudget* budget) : budget_(budget) {
      if (budget_) budget_->take();
    }
    ~Held() {
      if (budget_) budget_->give(1);
    }
    Held(const Held&) = delete;
    Held& operator=(const Held&) = delete;

   private:
    CoreBudget* budget_;
  };

 private:
  std::mutex mutex_;
  std::condition_variable freed_;
  unsigned free_;
};

}  // namespace fathom::util
