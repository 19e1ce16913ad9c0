#include "build/library_description.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>
#include "util/source_dir.h"

namespace fathom::build {
namespace {

const std::filesystem::path kFirmwareDir = std::filesystem::path(fathom::util::source_dir()) / "firmware";

TEST(LibraryDescription, MbedtlsNamesItsConfigurationMacros) {
  auto lib = load_library(kFirmwareDir, "mbedtls");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  EXPECT_EQ(lib->config_macro, "MBEDTLS_USER_CONFIG_FILE");
  EXPECT_EQ(lib->platform_config, "fathom_mbedtls_platform.h");
  EXPECT_EQ(lib->version_macro, "MBEDTLS_VERSION_STRING");
}

TEST(LibraryDescription, ConfigurationMacrosAreOptional) {
  auto lib = load_library(kFirmwareDir, "pqclean");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  EXPECT_EQ(lib->source, "pqclean");
  EXPECT_TRUE(lib->config_macro.empty());
  EXPECT_TRUE(lib->platform_config.empty());
  EXPECT_TRUE(lib->version_macro.empty());
  EXPECT_EQ(lib->glue_sources, std::vector<std::string>{"randombytes_glue.c"});
}

TEST(LibraryDescription, OptionalKeyOfTheWrongTypeIsAnError) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fathom-libdesc-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "libs" / "x");
  std::ofstream(dir / "libs" / "x" / "library.toml")
      << "name = \"x\"\nversion = \"1\"\nsource = \"x\"\nconfig_macro = 5\n";
  auto lib = load_library(dir, "x");
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(lib.has_value());
  EXPECT_NE(lib.error().message.find("config_macro"), std::string::npos);
}

TEST(LibraryDescription, HostapPortsAreWrittenOverTheirCryptoLibrary) {
  auto mbed = load_library(kFirmwareDir, "hostap-mbedtls");
  ASSERT_TRUE(mbed.has_value()) << mbed.error().message;
  EXPECT_EQ(mbed->source, "hostap");
  EXPECT_EQ(mbed->uses, std::vector<std::string>{"mbedtls"});
  EXPECT_EQ(mbed->workloads, "hostap");
  EXPECT_NE(std::find(mbed->cflags.begin(), mbed->cflags.end(), "-DCONFIG_SAE"), mbed->cflags.end());
  EXPECT_EQ(mbed->primitive_groups.at("scalar mult"),
            std::vector<std::string>{"crypto_ec_point_mul"});
  auto wolf = load_library(kFirmwareDir, "hostap-wolfssl");
  ASSERT_TRUE(wolf.has_value()) << wolf.error().message;
  EXPECT_EQ(wolf->uses, std::vector<std::string>{"wolfssl"});
  EXPECT_EQ(wolf->workloads, "hostap");
  // Without the key, the workloads are the library's own folder.
  auto plain = load_library(kFirmwareDir, "mbedtls");
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(plain->workloads, "mbedtls");
  EXPECT_TRUE(plain->uses.empty());
}

TEST(LibraryDescription, WorkloadsAndUsesAreChecked) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fathom-libdesc-uses-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "libs" / "x");
  auto error_for = [&](const std::string& extra) {
    std::ofstream(dir / "libs" / "x" / "library.toml")
        << "name = \"x\"\nversion = \"1\"\nsource = \"x\"\n" << extra;
    auto lib = load_library(dir, "x");
    return lib ? std::string() : lib.error().message;
  };
  EXPECT_NE(error_for("workloads = \"../mbedtls\"\n").find("must be a directory name"),
            std::string::npos);
  EXPECT_NE(error_for("uses = [\"x\"]\n").find("cannot use itself"), std::string::npos);
  EXPECT_NE(error_for("cflags = \"-DX\"\n").find("'cflags' must be an array of strings"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(LibraryDescription, PqcleanSourcesCoverAllSixParameterSets) {
  auto lib = load_library(kFirmwareDir, "pqclean");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  const auto has = [&](const std::string& s) {
    return std::find(lib->sources.begin(), lib->sources.end(), s) != lib->sources.end();
  };
  for (const char* set : {"ml-kem-512", "ml-kem-768", "ml-kem-1024"})
    EXPECT_TRUE(has(std::string("deps/PQClean/crypto_kem/") + set + "/clean/*.c")) << set;
  for (const char* set : {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"})
    EXPECT_TRUE(has(std::string("deps/PQClean/crypto_sign/") + set + "/clean/*.c")) << set;
  EXPECT_TRUE(has("deps/PQClean/common/fips202.c"));
}

}  // namespace
}  // namespace fathom::build

namespace fathom::build {
namespace {

// A layer of glue and workloads over a library it uses (tls-mbedtls over mbedtls): an explicitly
// empty `sources` is an empty archive, while patterns that match nothing stay an error.
TEST(LibraryDescription, EmptySourcesAreAGlueLayerButUnmatchedPatternsAreAnError) {
  auto tls = load_library(kFirmwareDir, "tls-mbedtls");
  ASSERT_TRUE(tls.has_value()) << tls.error().message;
  EXPECT_TRUE(tls->sources.empty());
  EXPECT_EQ(tls->uses, std::vector<std::string>{"mbedtls"});
  EXPECT_EQ(tls->workloads, "tls-mbedtls");
  EXPECT_TRUE(tls->primitive_groups.count("client") && tls->primitive_groups.count("server"));
  const auto root = std::filesystem::temp_directory_path() /
                    ("fathom-libdesc-sources-" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "src");
  auto files = library_source_files(*tls, root);
  ASSERT_TRUE(files.has_value()) << files.error().message;
  EXPECT_TRUE(files->empty());
  LibraryDescription missing = *tls;
  missing.sources = {"src/*.c"};
  files = library_source_files(missing, root);
  std::filesystem::remove_all(root);
  ASSERT_FALSE(files.has_value());
  EXPECT_NE(files.error().message.find("no source files match src/*.c"), std::string::npos)
      << files.error().message;
}

}  // namespace
}  // namespace fathom::build
