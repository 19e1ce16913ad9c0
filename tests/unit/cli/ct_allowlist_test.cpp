#include "cli/ct_allowlist.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace fathom::cli {
namespace {

namespace fs = std::filesystem;

class AllowlistTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (std::string("fathom-allowlist-") + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& text) {
    const fs::path p = dir_ / "allow.toml";
    std::ofstream(p) << text;
    return p;
  }

  static TaintSite site(std::string function, profile::TaintClass cls, std::string file,
                        uint32_t line) {
    TaintSite s;
    s.function = std::move(function);
    s.finding.cls = cls;
    s.file = std::move(file);
    s.line = line;
    return s;
  }

  static TaintCheck check_of(std::vector<TaintSite> sites) {
    TaintCheck c;
    c.configuration = "mbedtls";
    c.board = "sim-m33";
    c.operation = "ct_mbedtls_inv_mod";
    c.verdict = TaintVerdict::kLeak;
    c.findings = std::move(sites);
    return c;
  }

  fs::path dir_;
};

TEST_F(AllowlistTest, LineNarrowsAnEntryToOneSourceLine) {
  auto entries = load_allowlist(write(
      "[[allow]]\nfunction = \"mbedtls_mpi_cmp_mpi\"\nline = \"library/bignum.c:1103\"\n"
      "reason = \"the range check of A against N\"\n"));
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  ASSERT_EQ(entries->size(), 1u);
  EXPECT_EQ((*entries)[0].file, "library/bignum.c");
  EXPECT_EQ((*entries)[0].line, 1103u);

  using profile::TaintClass;
  TaintCheck c = check_of({
      site("mbedtls_mpi_cmp_mpi", TaintClass::kBranch, "/src/mbedtls/library/bignum.c", 1103),
      site("mbedtls_mpi_cmp_mpi", TaintClass::kBranch, "/src/mbedtls/library/bignum.c", 1110),
  });
  apply_allowlist(*entries, c);
  EXPECT_EQ(c.findings[0].allowed, "the range check of A against N");
  EXPECT_EQ(c.findings[1].allowed, "");  // another line of the same function
  EXPECT_EQ(c.verdict, TaintVerdict::kLeak);
  EXPECT_EQ((*entries)[0].matched, 1u);
}

TEST_F(AllowlistTest, TheFileMatchesWholePathComponents) {
  auto entries = load_allowlist(write(
      "[[allow]]\nfunction = \"f\"\nline = \"num.c:7\"\nreason = \"r\"\n"
      "[[allow]]\nfunction = \"f\"\nline = \"bignum.c:7\"\nreason = \"whole name\"\n"));
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  TaintCheck c = check_of({site("f", profile::TaintClass::kIt, "/a/bignum.c", 7)});
  apply_allowlist(*entries, c);
  EXPECT_EQ(c.findings[0].allowed, "whole name");  // "num.c" is not a component of it
  EXPECT_EQ((*entries)[0].matched, 0u);
  EXPECT_EQ(c.verdict, TaintVerdict::kAllowed);
}

TEST_F(AllowlistTest, AFindingWithoutALineIsNotMatchedByALineEntry) {
  auto entries = load_allowlist(
      write("[[allow]]\nfunction = \"f\"\nline = \"a.c:3\"\nreason = \"r\"\n"));
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  TaintCheck c = check_of({site("f", profile::TaintClass::kBranch, "", 0)});
  apply_allowlist(*entries, c);
  EXPECT_EQ(c.findings[0].allowed, "");
  EXPECT_EQ(c.verdict, TaintVerdict::kLeak);
}

TEST_F(AllowlistTest, EntriesNarrowByClassBoardAndOperation) {
  auto entries = load_allowlist(write(
      "[[allow]]\nfunction = \"f\"\nclass = \"it\"\nreason = \"an IT only\"\n"
      "[[allow]]\nfunction = \"g\"\nboard = \"sim-m0plus\"\nreason = \"another board\"\n"
      "[[allow]]\nfunction = \"g\"\noperation = \"ct_mbedtls_inv_mod\"\nreason = \"this op\"\n"));
  ASSERT_TRUE(entries.has_value()) << entries.error().message;
  using profile::TaintClass;
  TaintCheck c = check_of({site("f", TaintClass::kIt, "x.c", 1),
                           site("f", TaintClass::kBranch, "x.c", 2),
                           site("g", TaintClass::kBranch, "x.c", 3)});
  apply_allowlist(*entries, c);
  EXPECT_EQ(c.findings[0].allowed, "an IT only");
  EXPECT_EQ(c.findings[1].allowed, "");
  EXPECT_EQ(c.findings[2].allowed, "this op");
  EXPECT_EQ((*entries)[1].matched, 0u);
  EXPECT_EQ(c.verdict, TaintVerdict::kLeak);
}

TEST_F(AllowlistTest, ABadLineIsAUsageErrorAtTheKey) {
  for (const char* bad : {"bignum.c", "bignum.c:", ":12", "bignum.c:0", "bignum.c:1x",
                          "bignum.c:12345678901"}) {
    auto entries = load_allowlist(write(std::string("[[allow]]\nfunction = \"f\"\nreason = \"r\"\n"
                                                    "line = \"") + bad + "\"\n"));
    ASSERT_FALSE(entries.has_value()) << bad;
    EXPECT_TRUE(entries.error().is_usage) << bad;
    EXPECT_NE(entries.error().message.find("allow.toml:4:"), std::string::npos)
        << entries.error().message;
    EXPECT_NE(entries.error().message.find("is not FILE:LINE"), std::string::npos)
        << entries.error().message;
  }
}

TEST_F(AllowlistTest, AnEntryWithoutAReasonOrWithAnUnknownKeyIsAUsageError) {
  auto no_reason = load_allowlist(write("[[allow]]\nfunction = \"f\"\n"));
  ASSERT_FALSE(no_reason.has_value());
  EXPECT_NE(no_reason.error().message.find("reason"), std::string::npos);
  auto unknown = load_allowlist(write("[[allow]]\nfunction = \"f\"\nreason = \"r\"\nfile = \"a.c\"\n"));
  ASSERT_FALSE(unknown.has_value());
  EXPECT_TRUE(unknown.error().is_usage);
  EXPECT_NE(unknown.error().message.find("file"), std::string::npos) << unknown.error().message;
}

}  // namespace
}  // namespace fathom::cli
