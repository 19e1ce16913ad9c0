#include "util/core_budget.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace fathom::util {
namespace {

TEST(CoreBudget, TryTakeGivesOnlyWhatIsFree) {
  CoreBudget cores(3);
  cores.take();
  EXPECT_EQ(cores.try_take(5), 2u);
  EXPECT_EQ(cores.try_take(1), 0u);
  cores.give(2);
  EXPECT_EQ(cores.try_take(1), 1u);
}

TEST(CoreBudget, HeldCoreComesBackAtTheEndOfItsScope) {
  CoreBudget cores(1);
  {
    const CoreBudget::Held held(&cores);
    EXPECT_EQ(cores.try_take(1), 0u);
  }
  EXPECT_EQ(cores.try_take(1), 1u);
}

TEST(CoreBudget, TakeWaitsForAGivenCore) {
  CoreBudget cores(1);
  cores.take();
  std::atomic<bool> got{false};
  std::thread waiter([&] {
    cores.take();
    got = true;
  });
  EXPECT_FALSE(got);  // nothing free yet (the waiter cannot have taken one)
  cores.give(1);
  waiter.join();
  EXPECT_TRUE(got);
}

TEST(CoreBudget, ZeroCoresMeansOne) {
  CoreBudget cores(0);
  EXPECT_EQ(cores.try_take(2), 1u);
}

}  // namespace
}  // namespace fathom::util
