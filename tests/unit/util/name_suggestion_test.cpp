#include "util/name_suggestion.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace fathom::util {
namespace {

TEST(NameSuggestion, EditDistanceCountsEditsAndAdjacentSwaps) {
  EXPECT_EQ(edit_distance("run", "run"), 0u);
  EXPECT_EQ(edit_distance("rnu", "run"), 1u);  // one swap
  EXPECT_EQ(edit_distance("rn", "run"), 1u);
  EXPECT_EQ(edit_distance("runn", "run"), 1u);
  EXPECT_EQ(edit_distance("ran", "run"), 1u);
  EXPECT_EQ(edit_distance("", "run"), 3u);
  EXPECT_EQ(edit_distance("size", "list"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(NameSuggestion, NearestIsTheClosestObviousTypo) {
  const std::vector<std::string> commands = {"run",     "merge", "list",    "sources", "bench",
                                             "history", "size",  "profile", "compare"};
  EXPECT_EQ(nearest_names("rnu", commands), std::vector<std::string>{"run"});
  EXPECT_EQ(nearest_names("comapre", commands), std::vector<std::string>{"compare"});
  EXPECT_EQ(nearest_names("frobnicate", commands), std::vector<std::string>{});
  EXPECT_EQ(nearest_names("x", {}), std::vector<std::string>{});
  // Ties are all nearest, in the candidates' order.
  EXPECT_EQ(nearest_names("sim-m34", {"nrf54l15dk", "sim-m3", "sim-m33", "sim-m4"}),
            (std::vector<std::string>{"sim-m3", "sim-m33", "sim-m4"}));
}

TEST(NameSuggestion, MessageListsNearestFirst) {
  const std::vector<std::string> libraries = {"hostap-mbedtls", "mbedtls", "pqclean", "wolfssl"};
  EXPECT_EQ(unknown_name_message("library", "libraries", "mbedtsl", libraries),
            "unknown library 'mbedtsl'; did you mean 'mbedtls'? available libraries: mbedtls, "
            "hostap-mbedtls, pqclean, wolfssl");
  EXPECT_EQ(unknown_name_message("library", "libraries", "nosuch", libraries),
            "unknown library 'nosuch'; available libraries: hostap-mbedtls, mbedtls, pqclean, "
            "wolfssl");
  EXPECT_EQ(unknown_name_message("board", "boards", "sim-m34", {"a", "sim-m3", "sim-m33"}),
            "unknown board 'sim-m34'; did you mean 'sim-m3' or 'sim-m33'? available boards: "
            "sim-m3, sim-m33, a");
  EXPECT_EQ(unknown_name_message("board", "boards", "x", {}),
            "unknown board 'x'; no boards are available");
}

}  // namespace
}  // namespace fathom::util
