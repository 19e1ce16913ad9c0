#pragma once
// Invariant checks for the fuzz targets: a broken invariant aborts, which libFuzzer reports as a
// crash and the corpus replay (replay_main.cpp) as a failed test, in every build type.
#include <cstdio>
#include <cstdlib>

#define FATHOM_FUZZ_CHECK(condition)                                                  \
  do {                                                                                \
    if (!(condition)) {                                                               \
      std::fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, \
                   #condition);                                                       \
      std::abort();                                                                   \
    }                                                                                 \
  } while (0)
