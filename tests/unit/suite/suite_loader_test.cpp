#include "suite/suite_loader.h"

#include <gtest/gtest.h>

#include <string>
#include "util/source_dir.h"

namespace fathom::suite {
namespace {

// A minimal valid suite; tests append or alter lines to make one error at a known position.
const std::string kValid = R"([suite]
name = "t"
boards = ["sim-m33"]

[[configuration]]
name = "a"
library = "mbedtls"
)";

std::string error_of(const std::string& text) {
  auto suite = parse_suite(text, "s.toml");
  EXPECT_FALSE(suite.has_value()) << "expected an error for:\n" << text;
  return suite ? std::string() : suite.error().message;
}

TEST(SuiteLoader, LoadsTheDefaultSuiteFromTheRepository) {
  auto suite = load_suite(std::filesystem::path(fathom::util::source_dir()) / "suites" / "default.toml");
  ASSERT_TRUE(suite.has_value()) << suite.error().message;
  EXPECT_EQ(suite->name, "default");
  EXPECT_EQ(suite->boards, std::vector<std::string>{"sim-m33"});
  EXPECT_EQ(suite->runs, 10u);
  EXPECT_EQ(suite->warmup, 1u);
  // Measured: the ECC operations' samples differ run to run (the comment in the file).
  EXPECT_EQ(suite->fresh_inputs, (std::vector<std::string>{"ecdh_p256_keygen", "ecdh_p256_shared",
                                                           "ecdsa_p256_sign", "ecdsa_p256_verify"}));
  ASSERT_EQ(suite->configurations.size(), 2u);
  const auto& defaults = suite->configurations[0];
  EXPECT_EQ(defaults.name, "mbedtls");
  EXPECT_EQ(defaults.library, "mbedtls");
  EXPECT_EQ(defaults.expect_symbols_present, std::vector<std::string>{"ecp_mod_p256"});
  const auto& no_optim = suite->configurations[1];
  EXPECT_EQ(no_optim.name, "mbedtls-no-nist-optim");
  EXPECT_EQ(no_optim.undefines, std::vector<std::string>{"MBEDTLS_ECP_NIST_OPTIM"});
  EXPECT_EQ(no_optim.expect_symbols_absent, std::vector<std::string>{"ecp_mod_p256"});
  EXPECT_TRUE(no_optim.expect_symbols_present.empty());
}

TEST(SuiteLoader, ParsesEveryFieldAndAppliesDefaults) {
  auto suite = parse_suite(R"([suite]
name = "full"
description = "d"
boards = ["sim-m33", "other-board"]
runs = 3
warmup = 0
operations = ["sha256_1k", "ecdsa_p256_sign"]
cycle_budget = 5000

[[configuration]]
name = "x.1"
library = "mbedtls"
cflags = ["-Os", "-g"]
defines = ["A", "B=2"]
undefines = ["C"]
harness_defines = ["FATHOM_TEST_HOOK=1"]

[configuration.expect]
symbols_present = ["p"]
symbols_absent = ["q"]

[[configuration]]
name = "y"
library = "mbedtls"
)",
                           "full.toml");
  ASSERT_TRUE(suite.has_value()) << suite.error().message;
  EXPECT_EQ(suite->description, "d");
  EXPECT_EQ(suite->boards.size(), 2u);
  EXPECT_EQ(suite->runs, 3u);
  EXPECT_EQ(suite->warmup, 0u);
  EXPECT_EQ(suite->operations.size(), 2u);
  EXPECT_EQ(suite->cycle_budget, 5000u);
  const auto& x = suite->configurations[0];
  EXPECT_EQ(x.cflags, (std::vector<std::string>{"-Os", "-g"}));
  EXPECT_EQ(x.defines, (std::vector<std::string>{"A", "B=2"}));
  EXPECT_EQ(x.harness_defines, std::vector<std::string>{"FATHOM_TEST_HOOK=1"});
  EXPECT_EQ(x.expect_symbols_present, std::vector<std::string>{"p"});
  EXPECT_EQ(x.expect_symbols_absent, std::vector<std::string>{"q"});
  const auto& y = suite->configurations[1];
  EXPECT_EQ(y.cflags, std::vector<std::string>{"-O2"});  // default
  EXPECT_TRUE(y.defines.empty());

  auto minimal = parse_suite(kValid, "s.toml");
  ASSERT_TRUE(minimal.has_value()) << minimal.error().message;
  EXPECT_EQ(minimal->runs, 10u);
  EXPECT_EQ(minimal->warmup, 1u);
  EXPECT_TRUE(minimal->operations.empty());
}

TEST(SuiteLoader, SyntaxErrorsCarryLineAndColumn) {
  const std::string message = error_of("[suite]\nname = \"t\"\nruns = = 3\n");
  EXPECT_EQ(message.rfind("s.toml:3:", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(SuiteLoader, UnknownKeysAreErrorsAtTheKey) {
  EXPECT_EQ(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\nrunz = 5\n"
                     "[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n"),
            "s.toml:4:1: unknown key 'runz' in [suite]");
  EXPECT_EQ(error_of(kValid + "libary = \"x\"\n"),
            "s.toml:8:1: unknown key 'libary' in [[configuration]] 'a'");
  EXPECT_EQ(error_of(kValid + "expect.symbol_present = [\"x\"]\n"),
            "s.toml:8:8: unknown key 'symbol_present' in 'expect' of [[configuration]] 'a'");
  EXPECT_EQ(error_of("extra = 1\n" + kValid),
            "s.toml:1:1: unknown key 'extra' in the top level of the suite file");
}

TEST(SuiteLoader, WrongTypesAreErrorsAtTheValue) {
  EXPECT_EQ(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\nruns = \"10\"\n"
                     "[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n"),
            "s.toml:4:8: 'runs' in [suite] must be an integer, not a string");
  EXPECT_EQ(error_of(kValid + "defines = [\"A\", 3]\n"),
            "s.toml:8:17: 'defines' in [[configuration]] 'a' must contain only strings, found "
            "an integer");
  EXPECT_EQ(error_of(kValid + "cflags = \"-O2\"\n"),
            "s.toml:8:10: 'cflags' in [[configuration]] 'a' must be an array of strings, not a "
            "string");
}

TEST(SuiteLoader, RequiredFieldsAreReportedAtTheirTable) {
  EXPECT_EQ(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\n[[configuration]]\nname = \"a\"\n"),
            "s.toml:4:1: [[configuration]] 'a' is missing required key 'library'");
  EXPECT_EQ(
      error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\n[[configuration]]\nlibrary = \"m\"\n"),
      "s.toml:4:1: [[configuration]] #1 is missing required key 'name'");
  EXPECT_NE(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\n").find("no [[configuration]]"),
            std::string::npos);
  EXPECT_NE(error_of("[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n")
                .find("s.toml:1:1: missing the [suite]"),
            std::string::npos);
  EXPECT_NE(
      error_of(
          "[suite]\nname = \"t\"\nboards = []\n[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n")
          .find("s.toml:3:10:"),
      std::string::npos);
}

TEST(SuiteLoader, RangesAreChecked) {
  auto with = [](const std::string& line) {
    return "[suite]\nname = \"t\"\nboards = [\"b\"]\n" + line +
           "\n[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n";
  };
  EXPECT_EQ(error_of(with("runs = 0")),
            "s.toml:4:8: 'runs' in [suite] is 0; it must be between 1 and 100000");
  EXPECT_EQ(error_of(with("runs = 100001")),
            "s.toml:4:8: 'runs' in [suite] is 100001; it must be between 1 and 100000");
  EXPECT_EQ(error_of(with("warmup = -1")),
            "s.toml:4:10: 'warmup' in [suite] is -1; it must be between 0 and 100000");
  EXPECT_TRUE(parse_suite(with("runs = 100000"), "s.toml").has_value());
  EXPECT_TRUE(parse_suite(with("runs = 1"), "s.toml").has_value());
}

TEST(SuiteLoader, NamesMustMatchThePattern) {
  EXPECT_NE(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\n[[configuration]]\nname = "
                     "\"Bad\"\nlibrary = \"m\"\n")
                .find("s.toml:5:8: 'Bad' is not a valid name"),
            std::string::npos);
  EXPECT_NE(error_of("[suite]\nname = \"t\"\nboards = [\"b\"]\n[[configuration]]\nname = "
                     "\"-a\"\nlibrary = \"m\"\n")
                .find("s.toml:5:8:"),
            std::string::npos);
  EXPECT_NE(error_of("[suite]\nname = \"t\"\nboards = [\"../x\"]\n[[configuration]]\nname = "
                     "\"a\"\nlibrary = \"m\"\n")
                .find("s.toml:3:11: 'boards' in [suite]: '../x' is not a valid name"),
            std::string::npos);
  EXPECT_NE(error_of(kValid + "defines = [\"1X=2\"]\n").find("s.toml:8:12:"), std::string::npos);
  EXPECT_NE(error_of(kValid + "cflags = [\"main.c\"]\n").find("not a compiler flag"),
            std::string::npos);
}

// With the names of firmware/boards and firmware/libs, an unknown board or library is a usage
// error at its place in the file, listing the valid names (the nearest first).
TEST(SuiteLoader, UnknownBoardsAndLibrariesAreUsageErrorsAtTheirPlace) {
  const KnownNames known{{"sim-m3", "sim-m33", "sim-m4"}, {"mbedtls", "pqclean", "wolfssl"}};
  EXPECT_TRUE(parse_suite(kValid, "s.toml", &known).has_value());
  // Without `known` nothing is checked against the repository.
  EXPECT_TRUE(parse_suite(kValid + "with_libraries = [\"nosuch\"]\n", "s.toml").has_value());

  auto board = parse_suite(R"([suite]
name = "t"
boards = ["sim-m33", "sim-m34"]
[[configuration]]
name = "a"
library = "mbedtls"
)",
                           "s.toml", &known);
  ASSERT_FALSE(board.has_value());
  EXPECT_TRUE(board.error().is_usage);
  EXPECT_EQ(board.error().message,
            "s.toml:3:22: unknown board 'sim-m34'; did you mean 'sim-m3', 'sim-m33' or "
            "'sim-m4'? available boards: sim-m3, sim-m33, sim-m4");

  std::string typo = kValid;
  typo.replace(typo.find("\"mbedtls\""), 9, "\"mbedtsl\"");
  auto library = parse_suite(typo, "s.toml", &known);
  ASSERT_FALSE(library.has_value());
  EXPECT_TRUE(library.error().is_usage);
  EXPECT_EQ(library.error().message,
            "s.toml:7:11: unknown library 'mbedtsl'; did you mean 'mbedtls'? available "
            "libraries: mbedtls, pqclean, wolfssl");

  auto with =
      parse_suite(kValid + "with_libraries = [\"pqclean\", \"nosuch\"]\n", "s.toml", &known);
  ASSERT_FALSE(with.has_value());
  EXPECT_TRUE(with.error().is_usage);
  EXPECT_EQ(with.error().message,
            "s.toml:8:30: unknown library 'nosuch'; available libraries: mbedtls, pqclean, "
            "wolfssl");
}

TEST(SuiteLoader, ConfigurationNamesAreUnique) {
  EXPECT_EQ(error_of(kValid + "[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n"),
            "s.toml:9:8: configuration name 'a' is used twice");
}

TEST(SuiteLoader, ContradictionsAreErrors) {
  EXPECT_NE(error_of(kValid + "defines = [\"X=1\"]\nundefines = [\"X\"]\n")
                .find("both defines and undefines X"),
            std::string::npos);
  EXPECT_NE(error_of(kValid + "expect.symbols_present = [\"s\"]\nexpect.symbols_absent = [\"s\"]\n")
                .find("expected both present and absent"),
            std::string::npos);
  EXPECT_NE(error_of(kValid + "undefines = [\"X\", \"X\"]\n").find("lists 'X' twice"),
            std::string::npos);
}

TEST(SuiteLoader, LibraryOptionsSetALinkedInLibrarysMacrosAndOperations) {
  auto suite = parse_suite(kValid + R"(with_libraries = ["wolfssl", "tls-wolfssl"]
operations = ["tls13_interop_x", "tls13_interop_y"]
[configuration.library_options.wolfssl]
defines = ["WOLFSSL_TLS13", "MAX=4"]
undefines = ["NO_CERTS"]
[configuration.library_options.tls-wolfssl]
operations = false
)",
                           "s.toml");
  ASSERT_TRUE(suite.has_value()) << suite.error().message;
  const auto& c = suite->configurations.front();
  EXPECT_EQ(c.operations, (std::vector<std::string>{"tls13_interop_x", "tls13_interop_y"}));
  ASSERT_EQ(c.library_options.size(), 2u);
  const auto& wolf = c.library_options.at("wolfssl");
  EXPECT_EQ(wolf.defines, (std::vector<std::string>{"WOLFSSL_TLS13", "MAX=4"}));
  EXPECT_EQ(wolf.undefines, std::vector<std::string>{"NO_CERTS"});
  EXPECT_TRUE(wolf.operations);
  EXPECT_FALSE(c.library_options.at("tls-wolfssl").operations);
  EXPECT_TRUE(c.library_options.at("tls-wolfssl").defines.empty());
}

TEST(SuiteLoader, LibraryOptionsMustNameALinkedInLibraryAndKnownKeys) {
  const std::string linked = kValid + "with_libraries = [\"wolfssl\"]\n";
  EXPECT_EQ(error_of(linked + "[configuration.library_options.pqclean]\noperations = false\n"),
            "s.toml:9:1: library_options.pqclean of [[configuration]] 'a': 'pqclean' is not in "
            "with_libraries; options apply to a library linked in (the configuration's own "
            "library 'mbedtls' takes `defines` and `undefines` directly)");
  EXPECT_EQ(error_of(linked + "[configuration.library_options.wolfssl]\ndefine = [\"X\"]\n"),
            "s.toml:10:1: unknown key 'define' in library_options.wolfssl of [[configuration]] "
            "'a'");
  EXPECT_NE(error_of(linked + "[configuration.library_options.wolfssl]\ndefines = [\"X=1\"]\n"
                              "undefines = [\"X\"]\n")
                .find("both defines and undefines X"),
            std::string::npos);
  EXPECT_NE(error_of(linked + "[configuration.library_options.wolfssl]\noperations = \"no\"\n")
                .find("operations"),
            std::string::npos);
  EXPECT_NE(error_of(linked + "library_options.wolfssl = 3\n").find("must be a table"),
            std::string::npos);
}

TEST(SuiteLoader, InstructionProofsAreFunctionColonMnemonic) {
  auto suite = parse_suite(kValid + "expect.instructions_present = [\"mbedtls_mpi_core_mla:umaal\"]\n"
                                    "expect.instructions_absent = [\"f:vmla.f32\"]\n",
                           "s.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  EXPECT_EQ(suite->configurations.back().expect_instructions_present,
            std::vector<std::string>{"mbedtls_mpi_core_mla:umaal"});
  EXPECT_EQ(suite->configurations.back().expect_instructions_absent,
            std::vector<std::string>{"f:vmla.f32"});
  for (const char* bad : {"umaal", "f:", ":umaal", "f:UMAAL", "1f:umaal", "f:um aal"})
    EXPECT_NE(error_of(kValid + "expect.instructions_present = [\"" + bad + "\"]\n")
                  .find("is not FUNCTION:MNEMONIC"),
              std::string::npos)
        << bad;
}

TEST(SuiteLoader, FreshInputsAreOperationPatterns) {
  auto suite = parse_suite(
      "[suite]\nname = \"t\"\nboards = [\"b\"]\nfresh_inputs = [\"ecdsa_p256_sign\", \"*_keygen\", "
      "\"mlkem?_encaps\"]\n[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n",
      "s.toml");
  ASSERT_TRUE(suite) << suite.error().message;
  EXPECT_EQ(suite->fresh_inputs,
            (std::vector<std::string>{"ecdsa_p256_sign", "*_keygen", "mlkem?_encaps"}));
  // Missing: no operation is declared.
  auto plain = parse_suite(kValid, "s.toml");
  ASSERT_TRUE(plain) << plain.error().message;
  EXPECT_TRUE(plain->fresh_inputs.empty());

  const std::string head = "[suite]\nname = \"t\"\nboards = [\"b\"]\nfresh_inputs = ";
  const std::string tail = "\n[[configuration]]\nname = \"a\"\nlibrary = \"m\"\n";
  EXPECT_EQ(error_of(head + "[\"sha\", \"Ecdsa\"]" + tail),
            "s.toml:4:24: 'fresh_inputs' in [suite]: 'Ecdsa' is not an operation name pattern "
            "(lower-case letters, digits and '_', with '*' for any run of characters and '?' for "
            "one, e.g. \"*_keygen\")");
  EXPECT_NE(error_of(head + "[\"\"]" + tail).find("s.toml:4:17: 'fresh_inputs' in [suite]: '' is "
                                                    "not an operation name pattern"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[\"a-b\"]" + tail).find("s.toml:4:17:"), std::string::npos);
  EXPECT_NE(error_of(head + "\"sha\"" + tail).find("s.toml:4:16: 'fresh_inputs' in [suite] must be "
                                                  "an array of strings"),
            std::string::npos);
  EXPECT_NE(error_of(head + "[\"a\", \"a\"]" + tail).find("s.toml:4:"), std::string::npos);
}

TEST(SuiteLoader, MissingFileIsAnErrorNamingIt) {
  auto suite = load_suite("/nonexistent/dir/s.toml");
  ASSERT_FALSE(suite.has_value());
  EXPECT_NE(suite.error().message.find("/nonexistent/dir/s.toml"), std::string::npos);
}

TEST(SuiteLoader, FindConfigurationListsTheAlternatives) {
  auto suite = parse_suite(kValid, "s.toml");
  ASSERT_TRUE(suite.has_value());
  auto found = find_configuration(*suite, "a");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ((*found)->name, "a");
  auto missing = find_configuration(*suite, "b");
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().message, "suite 't' has no configuration 'b'; it has: a");
}

}  // namespace
}  // namespace fathom::suite
