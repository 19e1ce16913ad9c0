#include "build/c_library.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "model/suite.h"

namespace fathom::build {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

TEST(LibcFlags, NewlibNanoIsTheLinkFathomAlwaysUsed) {
  auto f = libc_flags("newlib-nano");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ(f->link, (std::vector<std::string>{"--specs=nano.specs", "--specs=nosys.specs"}));
  // The nano headers (newlib-nano's newlib.h) for every object, matching the library linked.
  EXPECT_EQ(f->compile, (std::vector<std::string>{"--specs=nano.specs"}));
}

TEST(LibcFlags, NewlibLinksTheFullLibraryWithItsDefaultHeaders) {
  auto f = libc_flags("newlib");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_TRUE(f->compile.empty());
  EXPECT_TRUE(contains(f->link, "--specs=nosys.specs"));
  EXPECT_FALSE(contains(f->link, "--specs=nano.specs"));
}

TEST(LibcFlags, PicolibcCompilesAndLinksWithItsSpecsButNotItsCrt0) {
  auto f = libc_flags("picolibc");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  EXPECT_EQ(f->compile, (std::vector<std::string>{"--specs=picolibc.specs"}));
  EXPECT_TRUE(contains(f->link, "--specs=picolibc.specs"));
  EXPECT_TRUE(contains(f->link, "-nostartfiles"));
  EXPECT_FALSE(contains(f->link, "--specs=nano.specs"));
  EXPECT_FALSE(contains(f->link, "--specs=nosys.specs"));
}

TEST(LibcFlags, EveryKnownLibcHasFlagsAndTheyDiffer) {
  std::set<std::vector<std::string>> links;
  for (const char* name : model::kLibcNames) {
    auto f = libc_flags(name);
    ASSERT_TRUE(f.has_value()) << name << ": " << f.error().message;
    links.insert(f->link);
  }
  EXPECT_EQ(links.size(), std::size(model::kLibcNames));
}

TEST(LibcFlags, UnknownLibcIsAnErrorListingTheChoices) {
  auto f = libc_flags("glibc");
  ASSERT_FALSE(f.has_value());
  EXPECT_NE(f.error().message.find("'glibc'"), std::string::npos);
  EXPECT_NE(f.error().message.find("newlib, newlib-nano, picolibc"), std::string::npos);
}

// Symbol sets as the linked images have them (arm-none-eabi-nm of images built by fathom).
const std::set<std::string> kNewlibSymbols = {"malloc", "_malloc_r", "__malloc_av_",
                                              "__malloc_sbrk_base", "_impure_ptr"};
const std::set<std::string> kNanoSymbols = {"malloc", "_malloc_r", "__malloc_free_list",
                                            "__malloc_sbrk_start", "_impure_ptr"};
const std::set<std::string> kPicolibcSymbols = {"malloc", "__malloc_free_list",
                                                "__malloc_sbrk_start", "__malloc_sbrk_top",
                                                "sbrk", "_set_tls"};

auto lookup(const std::set<std::string>& symbols) {
  return [&symbols](std::string_view s) { return symbols.count(std::string(s)) > 0; };
}

TEST(DetectLibc, TellsTheThreeAllocatorsApart) {
  EXPECT_EQ(detect_libc(lookup(kNewlibSymbols)), "newlib");
  EXPECT_EQ(detect_libc(lookup(kNanoSymbols)), "newlib-nano");
  EXPECT_EQ(detect_libc(lookup(kPicolibcSymbols)), "picolibc");
}

TEST(DetectLibc, NoKnownAllocatorIsUnknown) {
  const std::set<std::string> none = {"main", "memcpy"};
  EXPECT_EQ(detect_libc(lookup(none)), std::nullopt);
  const std::set<std::string> half = {"_malloc_r"};  // newlib family, neither allocator's data
  EXPECT_EQ(detect_libc(lookup(half)), std::nullopt);
}

TEST(CheckLibc, AcceptsTheClaimedLibrary) {
  EXPECT_TRUE(check_libc("c", "newlib", lookup(kNewlibSymbols)).has_value());
  EXPECT_TRUE(check_libc("c", "newlib-nano", lookup(kNanoSymbols)).has_value());
  EXPECT_TRUE(check_libc("c", "picolibc", lookup(kPicolibcSymbols)).has_value());
}

TEST(CheckLibc, AWrongLibraryIsAnErrorNamingBoth) {
  auto r = check_libc("fast", "picolibc", lookup(kNanoSymbols));
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("'fast'"), std::string::npos);
  EXPECT_NE(r.error().message.find("'picolibc'"), std::string::npos);
  EXPECT_NE(r.error().message.find("contains newlib-nano"), std::string::npos);
}

TEST(CheckLibc, AnUnrecognisedImageIsAnError) {
  const std::set<std::string> none = {"main"};
  auto r = check_libc("c", "newlib", lookup(none));
  ASSERT_FALSE(r.has_value());
  EXPECT_NE(r.error().message.find("no allocator"), std::string::npos);
}

}  // namespace
}  // namespace fathom::build
