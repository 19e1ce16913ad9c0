#pragma once
// A small worker pool for independent tasks whose results go into slots by index, so the
// output order never depends on the number of workers.
#include <cstddef>
#include <functional>

namespace fathom::util {

// The number of online CPUs (at least 1).
unsigned online_cpus();

// Calls `task(i)` for every i in [0, `count`) on up to `jobs` threads (0 = online_cpus();
// `jobs` = 1 runs everything on the calling thread, in order). Tasks are handed out in index
// order. Returns when all have finished. If a task throws, the remaining tasks still run and
// the exception of the lowest index is rethrown at the end.
void parallel_for(size_t count, unsigned jobs, const std::function<void(size_t index)>& task);

}  // namespace fathom::util
