// The [primitive_groups] table of library.toml (build/library_description.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "build/library_description.h"
#include "util/glob.h"
#include "util/source_dir.h"

namespace fathom::build {
namespace {

const std::filesystem::path kFirmwareDir = std::filesystem::path(fathom::util::source_dir()) / "firmware";

// Loads a library "x" whose library.toml is the required keys plus `extra`.
util::Result<LibraryDescription> load_with(const std::string& extra) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("fathom-groups-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "libs" / "x");
  std::ofstream(dir / "libs" / "x" / "library.toml")
      << "name = \"x\"\nversion = \"1\"\nsource = \"x\"\n"
      << extra;
  auto lib = load_library(dir, "x");
  std::filesystem::remove_all(dir);
  return lib;
}

TEST(LibraryPrimitiveGroups, AbsentTableMeansNoGroups) {
  auto lib = load_with("");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  EXPECT_TRUE(lib->primitive_groups.empty());
}

TEST(LibraryPrimitiveGroups, ReadsGroupsInOrderOfName) {
  auto lib = load_with(
      "[primitive_groups]\n"
      "\"SHA-2\" = [\"mbedtls_sha256*\", \"mbedtls_internal_sha256_process\"]\n"
      "bignum = [\"mbedtls_mpi_*\"]\n");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  ASSERT_EQ(lib->primitive_groups.size(), 2u);
  EXPECT_EQ(lib->primitive_groups.at("SHA-2"),
            (std::vector<std::string>{"mbedtls_sha256*", "mbedtls_internal_sha256_process"}));
  EXPECT_EQ(lib->primitive_groups.at("bignum"), std::vector<std::string>{"mbedtls_mpi_*"});
}

// Each bad table is rejected with a message naming the file, the key and what to do.
TEST(LibraryPrimitiveGroups, RejectsMalformedTables) {
  const struct {
    const char* toml;
    const char* expected;  // part of the message
  } cases[] = {
      {"primitive_groups = [\"a\"]\n", "'primitive_groups' must be a table"},
      {"[primitive_groups]\nAES = []\n", "primitive_groups.\"AES\" is empty"},
      {"[primitive_groups]\nAES = \"mbedtls_aes_*\"\n",
       "primitive_groups.\"AES\" must be an array"},
      {"[primitive_groups]\nAES = [\"mbedtls_aes_*\", 3]\n", "must be an array of strings"},
      {"[primitive_groups]\nAES = [\"\"]\n", "'' is not a function-name pattern"},
      {"[primitive_groups]\nAES = [\"aes encrypt\"]\n", "'aes encrypt' is not a function-name"},
      {"[primitive_groups]\nAES = { a = 1 }\n", "primitive_groups.\"AES\" must be an array"},
  };
  for (const auto& c : cases) {
    auto lib = load_with(c.toml);
    ASSERT_FALSE(lib.has_value()) << c.toml;
    EXPECT_NE(lib.error().message.find(c.expected), std::string::npos)
        << c.toml << " -> " << lib.error().message;
    EXPECT_NE(lib.error().message.find("library.toml:"), std::string::npos)
        << "no file:line in: " << lib.error().message;
  }
}

// The shipped descriptions define the groups the run table and the e2e checks rely on.
TEST(LibraryPrimitiveGroups, ShippedLibrariesDefineTheirGroups) {
  auto mbedtls = load_library(kFirmwareDir, "mbedtls");
  ASSERT_TRUE(mbedtls.has_value()) << mbedtls.error().message;
  for (const char* g : {"SHA-2", "SHA-3/Keccak", "AES", "bignum", "RNG"})
    EXPECT_TRUE(mbedtls->primitive_groups.count(g)) << "mbedtls lacks " << g;
  auto pqclean = load_library(kFirmwareDir, "pqclean");
  ASSERT_TRUE(pqclean.has_value()) << pqclean.error().message;
  for (const char* g : {"SHA-3/Keccak", "NTT", "RNG", "AES"})
    EXPECT_TRUE(pqclean->primitive_groups.count(g)) << "pqclean lacks " << g;
}

// wolfSSL's bignum is every math back end the suites build: the SP code, fast math (tfm.c) and
// X25519's field arithmetic, but not the curve layers above them nor wolfCrypt's self-tests.
TEST(LibraryPrimitiveGroups, WolfsslBignumCoversEveryMathBackEnd) {
  auto wolfssl = load_library(kFirmwareDir, "wolfssl");
  ASSERT_TRUE(wolfssl.has_value()) << wolfssl.error().message;
  ASSERT_TRUE(wolfssl->primitive_groups.count("bignum"));
  const auto& patterns = wolfssl->primitive_groups.at("bignum");
  auto in_bignum = [&](const std::string& function) {
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& p) { return util::glob_match(p, function); });
  };
  for (const char* f : {"sp_256_mul_9", "sp_256_mont_mul_8", "sp_mulmod", "_sp_mont_red",
                        "mp_cond_copy", "fp_mul_comba", "fp_montgomery_reduce_ex", "s_fp_add",
                        "mp_mulmod", "mp_invmod_mont_ct", "mp_cond_swap_ct_ex", "fe_mul", "fe_sq",
                        "fe_invert", "fe_cswap"})
    EXPECT_TRUE(in_bignum(f)) << f;
  for (const char* f : {"mp_test", "mp_test_div_3", "sp_256_proj_point_dbl_9",
                        "ecc_projective_add_point_safe", "curve25519", "wc_ecc_verify_hash_ex"})
    EXPECT_FALSE(in_bignum(f)) << f;
}

}  // namespace
}  // namespace fathom::build
