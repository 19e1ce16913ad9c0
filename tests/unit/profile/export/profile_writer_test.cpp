#include "profile/export/profile_writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "profile_fixture.h"

namespace fathom::profile {
namespace {

std::string render(std::string_view format, const ProfileSet& set) {
  auto writer = make_profile_writer(format);
  EXPECT_TRUE(writer.has_value()) << format;
  if (!writer) return "";
  std::ostringstream out;
  (*writer)->write(set, out);
  return out.str();
}

TEST(ProfileWriter, FactoryKnowsEveryFormat) {
  EXPECT_EQ(profile_writer_formats(),
            (std::vector<std::string>{"speedscope", "perfetto", "folded", "callgrind", "json"}));
  for (const auto& format : profile_writer_formats())
    EXPECT_TRUE(make_profile_writer(format).has_value()) << format;
}

TEST(ProfileWriter, FactoryRejectsPprofNamingTheValidFormats) {
  auto unknown = make_profile_writer("pprof");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message,
            "unknown profile format 'pprof'; use one of: speedscope, perfetto, folded, callgrind, "
            "json");
  EXPECT_TRUE(unknown.error().is_usage);
}

TEST(ProfileWriter, EveryFormatIsDeterministicAndHandlesEmptyAndMalformedSets) {
  ProfileSet malformed = fixture::two_profiles();
  malformed.frames[fixture::kB].name = "bad\xc3 utf8";
  malformed.profiles[0].nodes[1].children.push_back(0);   // a loop back to the root
  malformed.profiles[0].nodes[2].children.push_back(42);  // out of range
  malformed.profiles[0].nodes[5].frame = 1234;
  for (const auto& format : profile_writer_formats()) {
    EXPECT_EQ(render(format, fixture::two_profiles()), render(format, fixture::two_profiles()))
        << format;
    EXPECT_NO_THROW(render(format, ProfileSet{})) << format;
    EXPECT_NO_THROW(render(format, malformed)) << format;
    EXPECT_FALSE(render(format, malformed).empty()) << format;
  }
}

}  // namespace
}  // namespace fathom::profile
