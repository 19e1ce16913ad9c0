#include "pipeline/image_plan.h"

#include <gtest/gtest.h>
#include "util/source_dir.h"

namespace fathom::pipeline {
namespace {

const std::filesystem::path kFirmware = std::filesystem::path(fathom::util::source_dir()) / "firmware";

TEST(ImagePlan, ReadsBoardAndLibrariesOnceAndMergesGates) {
  model::Configuration cfg;
  cfg.name = "sae-wolfssl";
  cfg.library = "wolfssl";
  cfg.with_libraries = {"hostap-wolfssl"};
  cfg.libc = "newlib-nano";
  PlanInputs inputs;
  inputs.firmware_dir = kFirmware;
  inputs.compiler = "gcc x";
  inputs.runs = 3;
  inputs.operations = {"sae_hnp_commit"};
  auto plan = plan_image(cfg, "sim-m33", inputs);
  ASSERT_TRUE(plan.has_value()) << plan.error().message;
  EXPECT_EQ(plan->board.name, "sim-m33");
  ASSERT_EQ(plan->libraries.size(), 2u);
  EXPECT_EQ(plan->libraries[0].name, "wolfssl");
  EXPECT_EQ(plan->libraries[1].name, "hostap-wolfssl");
  EXPECT_EQ(plan->provenance.library, "wolfssl+hostap-wolfssl");
  EXPECT_EQ(plan->provenance.core, "cortex-m33");
  EXPECT_EQ(plan->provenance.runs, 3u);
  // wolfCrypt's self-test gates the image and joins the operation list.
  ASSERT_FALSE(plan->gate.gate_operations.empty());
  EXPECT_EQ(plan->operations.front(), "sae_hnp_commit");
  EXPECT_EQ(plan->operations.size(), 1 + plan->gate.gate_operations.size());
}

TEST(ImagePlan, AnUnknownBoardIsAnErrorAndTheBaseProvenanceRemains) {
  model::Configuration cfg;
  cfg.name = "c";
  cfg.library = "mbedtls";
  PlanInputs inputs;
  inputs.firmware_dir = kFirmware;
  auto plan = plan_image(cfg, "no-such-board", inputs);
  ASSERT_FALSE(plan.has_value());
  EXPECT_NE(plan.error().message.find("unknown board 'no-such-board'"), std::string::npos);
  EXPECT_EQ(base_provenance(cfg, "no-such-board", inputs).board, "no-such-board");
}

}  // namespace
}  // namespace fathom::pipeline

namespace fathom::pipeline {
namespace {

// The TLS interop image: wolfSSL's gate stays; a library linked without its operations adds
// no gate of its own; its options are in the provenance under its name.
model::Configuration interop_configuration() {
  model::Configuration cfg;
  cfg.name = "tls-interop";
  cfg.library = "mbedtls";
  cfg.with_libraries = {"wolfssl", "tls-interop"};
  cfg.defines = {"MBEDTLS_SSL_OUT_CONTENT_LEN=4096"};
  cfg.library_options["wolfssl"].defines = {"WOLFSSL_TLS13"};
  cfg.library_options["wolfssl"].undefines = {"NO_CERTS"};
  cfg.operations = {"tls13_interop_mbedtls_client_p256_aes128"};
  return cfg;
}

TEST(ImagePlan, ALibraryLinkedWithoutItsOperationsAddsNoGate) {
  model::Configuration cfg = interop_configuration();
  PlanInputs inputs;
  inputs.firmware_dir = kFirmware;
  auto with_operations = plan_image(cfg, "sim-m33", inputs);
  ASSERT_TRUE(with_operations.has_value()) << with_operations.error().message;
  EXPECT_EQ(with_operations->gate.gate_operations,
            std::vector<std::string>{"wolfcrypt_selftest"});
  cfg.library_options["wolfssl"].operations = false;
  auto without = plan_image(cfg, "sim-m33", inputs);
  ASSERT_TRUE(without.has_value()) << without.error().message;
  EXPECT_TRUE(without->gate.gate_operations.empty());
  EXPECT_EQ(without->operations,
            std::vector<std::string>{"tls13_interop_mbedtls_client_p256_aes128"});
  // Its primitive groups still count (the phases of its TLS code).
  EXPECT_TRUE(without->gate.primitive_groups.count("bignum"));
  const auto& defines = without->provenance.config_defines;
  EXPECT_EQ(defines, (std::vector<std::string>{"MBEDTLS_SSL_OUT_CONTENT_LEN=4096",
                                               "wolfssl:WOLFSSL_TLS13"}));
  EXPECT_EQ(without->provenance.config_undefines, std::vector<std::string>{"wolfssl:NO_CERTS"});
}

TEST(ImagePlan, AConfigurationsOwnOperationsReplaceTheSuitesButNotTheCommandLines) {
  model::Configuration cfg = interop_configuration();
  PlanInputs inputs;
  inputs.firmware_dir = kFirmware;
  inputs.operations = {"tls13_handshake_p256_aes128"};  // the suite's list
  auto plan = plan_image(cfg, "sim-m33", inputs);
  ASSERT_TRUE(plan.has_value()) << plan.error().message;
  EXPECT_EQ(plan->operations.front(), "tls13_interop_mbedtls_client_p256_aes128");
  inputs.operations = {"sha256_1k"};
  inputs.operations_from_command_line = true;
  plan = plan_image(cfg, "sim-m33", inputs);
  ASSERT_TRUE(plan.has_value()) << plan.error().message;
  EXPECT_EQ(plan->operations.front(), "sha256_1k");
}

}  // namespace
}  // namespace fathom::pipeline
