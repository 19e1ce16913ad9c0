// build::prove_configuration on the simulator's fixture firmware (tests/fixtures/firmware, -O2
// -g), where GCC inlines the static print_u32 into report(): a function inlined away still
// proves its configuration (what -Os does to wolfSSL's AesEncrypt_C), and an absent
// expectation is refuted by inlined code as well as by a symbol.
#include "build/configuration_proof.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "elf/debug_info.h"
#include "../test_paths.h"

namespace fathom::build {
namespace {

const std::string kFirmwareDir = FATHOM_TEST_FIRMWARE_DIR;

class ConfigurationProof : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kFirmwareDir.empty())
      GTEST_SKIP() << "no Arm toolchain at configure time: no test firmware";
    auto loaded = elf::ElfImage::load(path_);
    ASSERT_TRUE(loaded) << loaded.error().message;
    image_.emplace(std::move(*loaded));
    // The premise: print_u32 has no symbol, only inlined code; report has a symbol.
    ASSERT_EQ(image_->find_symbol("print_u32"), nullptr);
    ASSERT_NE(image_->find_symbol("report"), nullptr);
    auto debug = elf::DebugInfo::open(path_);
    ASSERT_TRUE(debug) << debug.error().message;
    ASSERT_TRUE(debug->has_inlined_code_of("print_u32"));
    ASSERT_FALSE(debug->has_inlined_code_of("report"));
  }

  static model::Configuration config(std::vector<std::string> present,
                                     std::vector<std::string> absent) {
    model::Configuration c;
    c.name = "fixture";
    c.expect_symbols_present = std::move(present);
    c.expect_symbols_absent = std::move(absent);
    return c;
  }

  util::Result<void> prove(const model::Configuration& c) {
    return prove_configuration(c, *image_, path_);
  }

  std::string path_ = kFirmwareDir + "/sim_fixture.elf";
  std::optional<elf::ElfImage> image_;
};

TEST_F(ConfigurationProof, ASymbolOrInlinedCodeProvesPresence) {
  auto proved = prove(config({"report", "print_u32"}, {"no_such_function"}));
  EXPECT_TRUE(proved) << (proved ? "" : proved.error().message);
  EXPECT_TRUE(prove(config({}, {})));
}

TEST_F(ConfigurationProof, AMissingFunctionFailsTheProof) {
  auto r = prove(config({"report", "no_such_function"}, {}));
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("configuration 'fixture' expects function "
                                   "'no_such_function' in the linked image, but it is absent"),
            std::string::npos)
      << r.error().message;
}

TEST_F(ConfigurationProof, AnAbsentFunctionMayNotHideInInlinedCode) {
  auto inlined = prove(config({}, {"print_u32"}));
  ASSERT_FALSE(inlined);
  EXPECT_NE(inlined.error().message.find("expects function 'print_u32' to be absent, but the "
                                         "linked image contains it (inlined code)"),
            std::string::npos)
      << inlined.error().message;
  auto symbol = prove(config({}, {"report"}));
  ASSERT_FALSE(symbol);
  EXPECT_NE(symbol.error().message.find("contains it (a symbol)"), std::string::npos)
      << symbol.error().message;
}

// FUNCTION:MNEMONIC proofs, on timing_sequences.S's measure_adds (movw/movt of the DWT address,
// ldr, add.w, subs, no divide).
TEST_F(ConfigurationProof, InstructionsAreLookedUpInTheFunctionsOwnCode) {
  model::Configuration c = config({}, {});
  c.expect_instructions_present = {"measure_adds:movt", "measure_adds:subs"};
  c.expect_instructions_absent = {"measure_adds:udiv"};
  auto proved = prove(c);
  EXPECT_TRUE(proved) << (proved ? "" : proved.error().message);

  c.expect_instructions_present = {"measure_adds:udiv"};
  c.expect_instructions_absent = {};
  auto missing = prove(c);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("expects instruction 'udiv' in 'measure_adds', but it "
                                         "is absent"),
            std::string::npos)
      << missing.error().message;

  c.expect_instructions_present = {};
  c.expect_instructions_absent = {"measure_adds:movw"};
  auto there = prove(c);
  ASSERT_FALSE(there);
  EXPECT_NE(there.error().message.find("not in 'measure_adds', but it is there"), std::string::npos)
      << there.error().message;

  // A function with no sized symbol (inlined away) proves nothing either way.
  c.expect_instructions_absent = {"print_u32:udiv"};
  auto inlined = prove(c);
  ASSERT_FALSE(inlined);
  EXPECT_NE(inlined.error().message.find("has no sized function symbol 'print_u32'"),
            std::string::npos)
      << inlined.error().message;
}

}  // namespace
}  // namespace fathom::build
