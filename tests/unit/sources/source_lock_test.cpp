#include "sources/source_lock.h"

#include <gtest/gtest.h>

namespace fathom::sources {
namespace {

constexpr const char* kGood = R"(schema_version = 1

[[source]]
name = "mbedtls"
version = "3.6.6"
origin = "debian-source"
package = "mbedtls"
package_version = "3.6.6-0.1~deb13u1"
suite = "trixie"
archive = "mbedtls_3.6.6.orig.tar.bz2"
sha256 = "8fb65fae8dcae5840f793c0a334860a411f884cc537ea290ce1c52bb64ca007a"
unpacks_to = "mbedtls-3.6.6"
env = "FATHOM_SOURCE_MBEDTLS"

[[source]]
name = "pqclean"
version = "0.8.1"
origin = "npm"
package = "pqclean"
package_version = "0.8.1"
archive = "pqclean-0.8.1.tgz"
sha256 = "0000000000000000000000000000000000000000000000000000000000000000"
unpacks_to = "package"
env = "FATHOM_SOURCE_PQCLEAN"
)";

// One valid debian-source entry; tests replace one line of it to make it malformed.
std::string entry_with(const std::string& from, const std::string& to) {
  std::string text = R"(schema_version = 1
[[source]]
name = "wolfssl"
version = "5.7.2"
origin = "debian-source"
package = "wolfssl"
package_version = "5.7.2-0.1"
suite = "trixie"
archive = "wolfssl_5.7.2.orig.tar.gz"
sha256 = "1111111111111111111111111111111111111111111111111111111111111111"
unpacks_to = "wolfssl-5.7.2"
env = "FATHOM_SOURCE_WOLFSSL"
)";
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(SourceLock, ParsesEntriesOfBothOrigins) {
  auto lock = parse_lock(kGood, "sources.lock");
  ASSERT_TRUE(lock) << lock.error().message;
  ASSERT_EQ(lock->sources.size(), 2u);
  const auto& mbedtls = lock->sources[0];
  EXPECT_EQ(mbedtls.name, "mbedtls");
  EXPECT_EQ(mbedtls.version, "3.6.6");
  EXPECT_EQ(mbedtls.origin, Origin::kDebianSource);
  EXPECT_EQ(mbedtls.package_version, "3.6.6-0.1~deb13u1");
  EXPECT_EQ(mbedtls.suite, "trixie");
  EXPECT_EQ(mbedtls.archive, "mbedtls_3.6.6.orig.tar.bz2");
  EXPECT_EQ(mbedtls.unpacks_to, "mbedtls-3.6.6");
  EXPECT_EQ(mbedtls.env, "FATHOM_SOURCE_MBEDTLS");
  EXPECT_EQ(mbedtls.line, 3);
  EXPECT_EQ(lock->sources[1].origin, Origin::kNpm);
  EXPECT_EQ(lock->sources[1].suite, "");
  EXPECT_EQ(lock->find("pqclean"), &lock->sources[1]);
  EXPECT_EQ(lock->find("openssl"), nullptr);
}

TEST(SourceLock, TheRepositoryLockParses) {
  auto lock = load_lock(default_lock_path());
  ASSERT_TRUE(lock) << lock.error().message;
  ASSERT_NE(lock->find("mbedtls"), nullptr);
}

TEST(SourceLock, SyntaxErrorHasLineAndColumn) {
  auto lock = parse_lock("schema_version = 1\n[[source]]\nname = \"x\nversion = 1\n", "s.lock");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().message.rfind("s.lock:3:", 0), 0u) << lock.error().message;
}

struct Malformed {
  std::string from, to;
  std::string expected_prefix;  // "<file>:<line>:<col>"
  std::string expected_text;
};

// Shown by gtest (and in ctest's test names) instead of a byte dump.
void PrintTo(const Malformed& m, std::ostream* os) { *os << m.to; }

class SourceLockMalformed : public testing::TestWithParam<Malformed> {};

TEST_P(SourceLockMalformed, IsRejectedWithLocation) {
  const auto& param = GetParam();
  auto lock = parse_lock(entry_with(param.from, param.to), "f.lock");
  ASSERT_FALSE(lock) << "accepted: " << param.to;
  const auto& message = lock.error().message;
  EXPECT_EQ(message.rfind(param.expected_prefix, 0), 0u) << message;
  EXPECT_NE(message.find(param.expected_text), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SourceLockMalformed,
    testing::Values(
        Malformed{"sha256 = \"1111", "sha256 = \"111", "f.lock:10:10:", "64 lower-case hex"},
        Malformed{"origin = \"debian-source\"", "origin = \"git\"",
                  "f.lock:5:10:", "expected 'debian-source' or 'npm'"},
        Malformed{"archive = \"wolfssl_5.7.2.orig.tar.gz\"", "archive = \"../x.tar.gz\"",
                  "f.lock:9:11:", "without '/'"},
        Malformed{"unpacks_to = \"wolfssl-5.7.2\"", "unpacks_to = \"..\"",
                  "f.lock:11:14:", "unpacks_to"},
        Malformed{"env = \"FATHOM_SOURCE_WOLFSSL\"", "env = \"lower case\"",
                  "f.lock:12:7:", "environment variable"},
        Malformed{"suite = \"trixie\"\n", "", "f.lock:2:1:", "needs 'suite'"},
        Malformed{"sha256 = ", "sha265 = ", "f.lock:10:1:", "unknown key 'sha265'"},
        Malformed{"version = \"5.7.2\"", "version = 5", "f.lock:4:11:", "must be a string"},
        Malformed{"name = \"wolfssl\"\n", "", "f.lock:2:1:", "missing key 'name'"},
        Malformed{"schema_version = 1", "schema_version = 2", "f.lock:1:18:", "must be 1"},
        Malformed{"schema_version = 1\n", "", "f.lock:1:1:", "schema_version"},
        Malformed{"[[source]]", "[source]", "f.lock:2:1:", "[[source]] tables"}),
    [](const testing::TestParamInfo<Malformed>& info) {
      return "case" + std::to_string(info.index);
    });

TEST(SourceLock, NpmEntryMustNotHaveASuite) {
  std::string text = kGood;
  text.insert(text.find("archive = \"pqclean"), "suite = \"trixie\"\n");
  auto lock = parse_lock(text, "s.lock");
  ASSERT_FALSE(lock);
  EXPECT_NE(lock.error().message.find("only meaningful for origin 'debian-source'"),
            std::string::npos)
      << lock.error().message;
}

TEST(SourceLock, DuplicateNamesAreRejected) {
  std::string text = kGood;
  text.replace(text.find("name = \"pqclean\""), 16, "name = \"mbedtls\"");
  auto lock = parse_lock(text, "s.lock");
  ASSERT_FALSE(lock);
  EXPECT_EQ(lock.error().message.rfind("s.lock:15:1:", 0), 0u) << lock.error().message;
  EXPECT_NE(lock.error().message.find("listed twice (first at line 3)"), std::string::npos);
}

TEST(SourceLock, MissingFileIsAnErrorNamingIt) {
  auto lock = load_lock("/nonexistent/sources.lock");
  ASSERT_FALSE(lock);
  EXPECT_NE(lock.error().message.find("/nonexistent/sources.lock"), std::string::npos);
}

}  // namespace
}  // namespace fathom::sources
