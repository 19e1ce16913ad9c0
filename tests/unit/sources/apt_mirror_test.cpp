#include "sources/apt_mirror.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>

#include "sources/debian_source_download.h"

namespace fathom::sources {
namespace {

// Shaped like a Debian 12 container's /etc/apt/sources.list.d/debian.sources.
constexpr const char* kDeb822 = R"(Types: deb
# http://snapshot.example/archive/debian/20250520T000000Z
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security/
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
)";

constexpr const char* kOneLine = R"(# main archive
deb http://old.example/debian bullseye main contrib non-free
deb-src http://old.example/debian bullseye main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://old.example/debian-security bullseye-security main # trailing comment
deb http://old.example/debian bullseye-updates main
)";

TEST(AptMirror, ParsesDeb822Stanzas) {
  auto entries = parse_deb822_sources(kDeb822);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].types, std::vector<std::string>{"deb"});
  EXPECT_EQ(entries[0].uris, std::vector<std::string>{"http://mirror.example/debian"});
  EXPECT_EQ(entries[0].suites, (std::vector<std::string>{"bookworm", "bookworm-updates"}));
  EXPECT_EQ(entries[0].components, std::vector<std::string>{"main"});
  EXPECT_EQ(entries[0].signed_by, "/usr/share/keyrings/debian-archive-keyring.gpg");
  EXPECT_EQ(entries[1].suites, std::vector<std::string>{"bookworm-security"});
}

TEST(AptMirror, Deb822SkipsDisabledStanzasAndJoinsContinuationLines) {
  auto entries = parse_deb822_sources(
      "Types: deb\nURIs: http://a.example/debian\nSuites: trixie\nComponents: main\n"
      "Enabled: no\n\n"
      "types: deb deb-src\nURIs:\n http://b.example/debian\n http://c.example/debian\n"
      "Suites: trixie\nComponents: main contrib\n");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].types, (std::vector<std::string>{"deb", "deb-src"}));
  EXPECT_EQ(entries[0].uris,
            (std::vector<std::string>{"http://b.example/debian", "http://c.example/debian"}));
}

TEST(AptMirror, ParsesOneLineFormatWithOptionsAndComments) {
  auto entries = parse_one_line_sources(kOneLine);
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].uris, std::vector<std::string>{"http://old.example/debian"});
  EXPECT_EQ(entries[0].suites, std::vector<std::string>{"bullseye"});
  EXPECT_EQ(entries[0].components, (std::vector<std::string>{"main", "contrib", "non-free"}));
  EXPECT_EQ(entries[1].types, std::vector<std::string>{"deb-src"});
  EXPECT_EQ(entries[2].uris, std::vector<std::string>{"http://old.example/debian-security"});
  EXPECT_EQ(entries[2].signed_by, "/usr/share/keyrings/debian-archive-keyring.gpg");
  EXPECT_EQ(entries[2].components, std::vector<std::string>{"main"});
}

TEST(AptMirror, FindsArchiveAndSecurityFromDeb822) {
  auto mirror = find_debian_mirror(parse_deb822_sources(kDeb822));
  ASSERT_TRUE(mirror);
  EXPECT_EQ(mirror->archive_uri, "http://mirror.example/debian");
  EXPECT_EQ(mirror->security_uri, "http://mirror.example/debian-security");  // slash dropped
}

TEST(AptMirror, FindsArchiveAndSecurityFromOneLine) {
  auto mirror = find_debian_mirror(parse_one_line_sources(kOneLine));
  ASSERT_TRUE(mirror);
  EXPECT_EQ(mirror->archive_uri, "http://old.example/debian");
  EXPECT_EQ(mirror->security_uri, "http://old.example/debian-security");
}

TEST(AptMirror, IgnoresThirdPartyReposThatUseDebianCodenames) {
  // A vendor repository with its own key and suite "bookworm" comes first; it is not Debian.
  auto mirror = find_debian_mirror(parse_one_line_sources(
      "deb [signed-by=/etc/apt/keyrings/vendor.gpg] https://vendor.example/debian bookworm "
      "main\n"
      "deb https://nodes.example/node nodistro main\n"
      "deb http://mirror.example/debian bookworm main\n"));
  ASSERT_TRUE(mirror);
  EXPECT_EQ(mirror->archive_uri, "http://mirror.example/debian");
  EXPECT_EQ(mirror->security_uri, "");
}

TEST(AptMirror, NoDebianReleaseMeansNoMirror) {
  EXPECT_FALSE(find_debian_mirror(parse_one_line_sources(
      "deb http://ports.example/ubuntu jammy main\ndeb http://x.example/d bookworm-updates "
      "main\n")));
  EXPECT_FALSE(find_debian_mirror({}));
}

TEST(AptMirror, ReleaseSuites) {
  EXPECT_TRUE(is_debian_release_suite("bookworm"));
  EXPECT_TRUE(is_debian_release_suite("trixie"));
  EXPECT_TRUE(is_debian_release_suite("stable"));
  EXPECT_TRUE(is_debian_release_suite("sid"));
  EXPECT_FALSE(is_debian_release_suite("bookworm-updates"));
  EXPECT_FALSE(is_debian_release_suite("bookworm-security"));
  EXPECT_FALSE(is_debian_release_suite("jammy"));
}

TEST(AptMirror, DiscoversFromADirectoryTreeInAptOrder) {
  char dir[] = "/tmp/fathom-apt-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::filesystem::path etc(dir);
  std::filesystem::create_directories(etc / "sources.list.d");
  // Empty sources.list (as on current Debian images), then .d files in name order; a file
  // with another extension is ignored, as apt ignores it.
  std::ofstream(etc / "sources.list") << "# see sources.list.d\n";
  std::ofstream(etc / "sources.list.d" / "a.sources.disabled")
      << "Types: deb\nURIs: http://wrong.example/debian\nSuites: trixie\nComponents: main\n";
  std::ofstream(etc / "sources.list.d" / "debian.sources") << kDeb822;
  std::ofstream(etc / "sources.list.d" / "z.list") << "deb http://late.example/debian sid main\n";

  auto mirror = discover_debian_mirror(etc);
  ASSERT_TRUE(mirror) << mirror.error().message;
  EXPECT_EQ(mirror->archive_uri, "http://mirror.example/debian");
  EXPECT_EQ(mirror->security_uri, "http://mirror.example/debian-security");
  std::filesystem::remove_all(etc);
}

TEST(AptMirror, DiscoveryWithoutMirrorSaysWhereItLooked) {
  char dir[] = "/tmp/fathom-apt-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  auto mirror = discover_debian_mirror(dir);
  ASSERT_FALSE(mirror);
  EXPECT_EQ(mirror.error().message,
            "no Debian mirror found in " + std::string(dir) + "/sources.list{,.d}");
  std::filesystem::remove_all(dir);
}

TEST(AptMirror, SourceListForASuite) {
  EXPECT_EQ(
      debian_source_list({"http://m.example/debian", "http://m.example/debian-security"}, "trixie"),
      "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
      "http://m.example/debian trixie main\n"
      "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
      "http://m.example/debian-security trixie-security main\n");
  EXPECT_EQ(debian_source_list({"http://m.example/debian", ""}, "trixie"),
            "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
            "http://m.example/debian trixie main\n");
}

}  // namespace
}  // namespace fathom::sources
