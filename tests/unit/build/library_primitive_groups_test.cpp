// The [primitive_groups] table of library.toml (build/library_description.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "build/library_description.h"
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

}  // namespace
}  // namespace fathom::build
