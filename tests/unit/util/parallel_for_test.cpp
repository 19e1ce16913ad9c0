#include "util/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace fathom::util {
namespace {

TEST(ParallelFor, EveryIndexRunsOnceAndResultsKeepTheirSlot) {
  for (unsigned jobs : {1u, 2u, 4u, 0u}) {
    std::vector<size_t> out(100, 0);
    std::vector<std::atomic<int>> calls(100);
    parallel_for(out.size(), jobs, [&](size_t i) {
      out[i] = i * i;
      ++calls[i];
    });
    for (size_t i = 0; i < out.size(); ++i) {
      EXPECT_EQ(out[i], i * i) << "jobs " << jobs;
      EXPECT_EQ(calls[i], 1) << "jobs " << jobs;
    }
  }
}

TEST(ParallelFor, OneJobRunsInIndexOrderOnTheCallingThread) {
  std::vector<size_t> order;
  parallel_for(5, 1, [&](size_t i) { order.push_back(i); });
  EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(ParallelFor, AThrowingTaskDoesNotStopTheOthers) {
  std::vector<int> done(6, 0);
  try {
    parallel_for(done.size(), 2, [&](size_t i) {
      if (i == 1 || i == 4) throw std::runtime_error("task " + std::to_string(i));
      done[i] = 1;
    });
    FAIL() << "expected the exception of task 1";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "task 1");  // the lowest index, whatever finished first
  }
  EXPECT_EQ(done, (std::vector<int>{1, 0, 1, 1, 0, 1}));
}

TEST(ParallelFor, NothingToDo) {
  int calls = 0;
  parallel_for(0, 4, [&](size_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  EXPECT_GE(online_cpus(), 1u);
}

}  // namespace
}  // namespace fathom::util
