#include "profile/export/json_writer.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

using nlohmann::json;

json render(const ProfileSet& set) {
  std::ostringstream out;
  JsonWriter().write(set, out);
  return json::parse(out.str());
}

TEST(JsonWriter, EveryFunctionOfEveryProfileWithItsCosts) {
  ProfileSet set = fixture::two_profiles();
  set.profiles[0].execution_cycles = {87};
  const json file = render(set);
  EXPECT_EQ(file["source"], "mbedtls on sim-m33");
  EXPECT_EQ(file["clock_hz"], fixture::kClockHz);
  ASSERT_EQ(file["profiles"].size(), 2u);
  const json& p = file["profiles"][0];
  EXPECT_EQ(p["name"], "ecdh_p256_shared");
  EXPECT_EQ(p["total_cycles"], 87);
  EXPECT_EQ(p["executions"], 1);
  ASSERT_EQ(p["functions"].size(), 4u);
  uint64_t self = 0;
  for (const json& f : p["functions"]) {
    self += f["exclusive_cycles"].get<uint64_t>();
    if (f["name"] == "b") {
      EXPECT_EQ(f["inclusive_cycles"], 27);
      EXPECT_EQ(f["exclusive_cycles"], 12);
      EXPECT_EQ(f["calls"], 2);
      EXPECT_EQ(f["file"], "b.c");
      EXPECT_EQ(f["line"], 30);
    }
  }
  EXPECT_EQ(self, 87u);
  EXPECT_EQ(file["profiles"][1]["functions"][0]["name"], "main");
}

}  // namespace
}  // namespace fathom::profile
