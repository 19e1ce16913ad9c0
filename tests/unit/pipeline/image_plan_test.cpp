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
