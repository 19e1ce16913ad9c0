#include "util/sha256.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>

namespace fathom::util {
namespace {

// Test vectors from FIPS 180-4 examples (NIST CSRC "SHA256.pdf").
TEST(Sha256, KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FileMatchesStringDigestAcrossChunks) {
  char dir[] = "/tmp/fathom-sha256-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/data.bin";
  // Larger than the 64 KiB read buffer, so several updates are needed.
  std::string data;
  for (int i = 0; i < 200000; ++i) data.push_back(static_cast<char>(i * 7 + 1));
  std::ofstream(path, std::ios::binary) << data;
  auto digest = sha256_file(path);
  ASSERT_TRUE(digest) << digest.error().message;
  EXPECT_EQ(*digest, sha256_hex(data));
  unlink(path.c_str());
  rmdir(dir);
}

TEST(Sha256, MissingFileIsAnErrorNamingThePath) {
  auto digest = sha256_file("/nonexistent/fathom/file.bin");
  ASSERT_FALSE(digest);
  EXPECT_NE(digest.error().message.find("/nonexistent/fathom/file.bin"), std::string::npos);
}

TEST(Sha256, RecognisesHexDigests) {
  EXPECT_TRUE(is_sha256_hex(sha256_hex("x")));
  EXPECT_FALSE(is_sha256_hex("abc"));
  EXPECT_FALSE(is_sha256_hex(std::string(64, 'A')));  // upper case is not the canonical form
  EXPECT_FALSE(is_sha256_hex(std::string(64, 'g')));
}

}  // namespace
}  // namespace fathom::util
