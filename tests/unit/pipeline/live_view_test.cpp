// The live view's line text and its registry (pipeline/live_view.h).
#include "pipeline/live_view.h"

#include <gtest/gtest.h>

namespace fathom::pipeline {
namespace {

TEST(LiveLine, SaysTheShareDoneAndAnEtaFromTheImagesOwnRate) {
  EXPECT_EQ(live_line("[1/2] mbedtls on sim-m33", "ecdh_p256_shared", 123'400'000, 610'700'000,
                      5.0),
            "[1/2] mbedtls on sim-m33: ecdh_p256_shared, 123.4 M of 610.7 M instructions (20%), "
            "ETA 0:20");
}

TEST(LiveLine, AnImageJustStartedHasItsShareButNoEta) {
  EXPECT_EQ(live_line("[2/2] x on sim-m4", "", 0, 242'400'000, 0.0),
            "[2/2] x on sim-m4: starting, 0.0 M of 242.4 M instructions (0%)");
}

TEST(LiveLine, WithoutAnEarlierCountOnlyTheInstructions) {
  EXPECT_EQ(live_line("[1/1] x on sim-m4", "known-answer tests", 1'250'000, std::nullopt, 1.0),
            "[1/1] x on sim-m4: known-answer tests, 1.2 M instructions");
  EXPECT_EQ(live_line("[1/1] x on sim-m4", "a", 20'000'000, 10'000'000, 1.0),
            "[1/1] x on sim-m4: a, 20.0 M of 10.0 M instructions (longer than the last run)");
}

// The ticker redraws when an image starts: the registry calls its listener after each add
// (with the image in), and no more once the listener is cleared.
TEST(LiveImages, CallsItsListenerAfterEachAdd) {
  LiveImages images;
  LiveImage a, b;
  int calls = 0;
  images.on_add([&] { ++calls; });
  images.add(&a);
  EXPECT_EQ(calls, 1);
  images.add(&b);
  EXPECT_EQ(calls, 2);
  images.remove(&a);
  EXPECT_EQ(calls, 2);
  images.on_add(nullptr);
  images.add(&a);
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace fathom::pipeline
