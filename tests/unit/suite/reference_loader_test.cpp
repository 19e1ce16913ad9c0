#include "suite/reference_loader.h"

#include <gtest/gtest.h>

#include <string>
#include "util/source_dir.h"

namespace fathom::suite {
namespace {

std::string reference_text(const std::string& extra = "",
                           const std::string& measurements = "[[measurement]]\n"
                                                             "operation = \"op_a\"\n"
                                                             "cycles = 1000\n") {
  return "schema_version = 1\nname = \"r\"\nsource = \"a paper\"\ndevice = \"chip\"\n"
         "suite = \"s\"\nboard = \"sim-m4\"\n" +
         extra + measurements;
}

std::string error_of(const std::string& text) {
  auto set = parse_reference_set(text, "r.toml");
  EXPECT_FALSE(set.has_value()) << "expected an error for:\n" << text;
  return set ? std::string() : set.error().message;
}

TEST(ReferenceLoader, LoadsThePqm4FileFromTheRepository) {
  auto set = load_reference_set(std::filesystem::path(fathom::util::source_dir()) / "firmware" /
                                "calibration" / "pqm4_stm32l4r5.toml");
  ASSERT_TRUE(set.has_value()) << set.error().message;
  EXPECT_EQ(set->suite, "calibrate-mlkem");
  EXPECT_EQ(set->board, "sim-m4");
  ASSERT_EQ(set->measurements.size(), 6u);
  EXPECT_EQ(set->measurements[0].operation, "mlkem512_keygen");
  EXPECT_EQ(set->measurements[0].cycles, 595793u);
  EXPECT_EQ(set->measurements[5].operation, "mlkem768_decaps");
  EXPECT_EQ(set->measurements[5].cycles, 1387984u);
  EXPECT_FALSE(set->notes.empty());
  // pqm4's published hashing shares, for the like-for-like view.
  EXPECT_EQ(set->hashing_group, "FIPS 202");
  EXPECT_NE(set->hashing_source.find("pqm4"), std::string::npos);
  ASSERT_TRUE(set->measurements[0].hashing_share.has_value());
  EXPECT_DOUBLE_EQ(*set->measurements[0].hashing_share, 0.498);
  EXPECT_DOUBLE_EQ(*set->measurements[5].hashing_share, 0.354);
}

TEST(ReferenceLoader, HashingSharesNeedTheirGroupAndEveryMeasurementOne) {
  auto set = parse_reference_set(
      reference_text("hashing_group = \"G\"\n",
                     "[[measurement]]\noperation = \"a\"\ncycles = 5\n"
                     "hashing_share_percent = 25\n"),
      "r.toml");
  ASSERT_TRUE(set.has_value()) << set.error().message;
  EXPECT_DOUBLE_EQ(*set->measurements[0].hashing_share, 0.25);
  EXPECT_NE(error_of(reference_text("hashing_group = \"G\"\n",
                                    "[[measurement]]\noperation = \"a\"\ncycles = 5\n"))
                .find("hashing_share_percent"),
            std::string::npos);
  EXPECT_NE(error_of(reference_text("", "[[measurement]]\noperation = \"a\"\ncycles = 5\n"
                                        "hashing_share_percent = 25\n"))
                .find("hashing_group"),
            std::string::npos);
  EXPECT_NE(error_of(reference_text("hashing_group = \"G\"\n",
                                    "[[measurement]]\noperation = \"a\"\ncycles = 5\n"
                                    "hashing_share_percent = 101\n"))
                .find("r.toml:"),
            std::string::npos);
}

TEST(ReferenceLoader, ParsesOptionalFields) {
  auto set = parse_reference_set(
      reference_text("compiler = \"gcc\"\ncflags = [\"-O3\"]\nstatistic = \"mean\"\n"
                     "notes = [\"n1\"]\n"),
      "r.toml");
  ASSERT_TRUE(set.has_value()) << set.error().message;
  EXPECT_EQ(set->compiler, "gcc");
  EXPECT_EQ(set->cflags, std::vector<std::string>{"-O3"});
  EXPECT_EQ(set->notes, std::vector<std::string>{"n1"});
  ASSERT_EQ(set->measurements.size(), 1u);
  EXPECT_EQ(set->measurements[0].cycles, 1000u);
}

TEST(ReferenceLoader, RejectsBadInputWithItsPosition) {
  EXPECT_NE(error_of(reference_text("typo = 1\n")).find("typo"), std::string::npos);
  EXPECT_NE(error_of(reference_text("", "")).find("[[measurement]]"), std::string::npos);
  EXPECT_NE(error_of(reference_text("", "[[measurement]]\noperation = \"a\"\ncycles = 0\n"))
                .find("r.toml:"),
            std::string::npos);
  EXPECT_NE(error_of(reference_text("", "[[measurement]]\noperation = \"a\"\n")).find("cycles"),
            std::string::npos);
  EXPECT_NE(error_of(reference_text("", "[[measurement]]\noperation = \"A B\"\ncycles = 5\n"))
                .find("operation name"),
            std::string::npos);
  EXPECT_NE(error_of(reference_text("", "[[measurement]]\noperation = \"a\"\ncycles = 5\n"
                                        "[[measurement]]\noperation = \"a\"\ncycles = 6\n"))
                .find("twice"),
            std::string::npos);
  EXPECT_NE(error_of("schema_version = 2\n").find("schema_version"), std::string::npos);
  EXPECT_NE(error_of("name = \"r\"\n").find("schema_version"), std::string::npos);
  EXPECT_NE(error_of("schema_version = 1\n[[[").find("r.toml:"), std::string::npos);
}

}  // namespace
}  // namespace fathom::suite
