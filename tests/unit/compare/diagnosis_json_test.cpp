#include "compare/diagnosis_json.h"

#include <gtest/gtest.h>

namespace fathom::compare {
namespace {

TEST(DiagnosisJson, CarriesEveryFigureOfTheDiagnosis) {
  OperationDiagnosis d;
  d.operation = "ecdh_p256_shared";
  d.cycles_a = 1000;
  d.cycles_b = 5000;
  d.changed = true;
  d.covered = 0.95;
  FunctionDelta f;
  f.function = "mbedtls_mpi_mul_mpi";
  f.exclusive_a = 100;
  f.exclusive_b = 3900;
  f.inclusive_a = 150;
  f.inclusive_b = 4000;
  f.calls_a = 10;
  f.calls_b = 40;
  f.share = 0.95;
  d.functions.push_back(f);
  d.grew_inclusive.push_back(f);
  FunctionDelta gone;
  gone.function = "ecp_mod_p256";
  gone.exclusive_a = 200;
  d.vanished.push_back(gone);
  d.controls.push_back({"ecdsa_p256_verify", 700, 700, {"mbedtls_mpi_mul_mpi"}});
  OperationDiagnosis same;
  same.operation = "sha256_1k";
  same.cycles_a = same.cycles_b = 42;

  const auto j = diagnosis_json({d, same});
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["operation"], "ecdh_p256_shared");
  EXPECT_EQ(j[0]["cycles_b"], 5000u);
  EXPECT_EQ(j[0]["changed"], true);
  EXPECT_DOUBLE_EQ(j[0]["covered"].get<double>(), 0.95);
  ASSERT_EQ(j[0]["functions"].size(), 1u);
  EXPECT_EQ(j[0]["functions"][0]["function"], "mbedtls_mpi_mul_mpi");
  EXPECT_EQ(j[0]["functions"][0]["exclusive_b"], 3900);
  EXPECT_EQ(j[0]["functions"][0]["calls_b"], 40u);
  EXPECT_EQ(j[0]["grew_inclusive"][0]["inclusive_b"], 4000);
  EXPECT_EQ(j[0]["vanished"][0]["function"], "ecp_mod_p256");
  EXPECT_EQ(j[0]["controls"][0]["operation"], "ecdsa_p256_verify");
  EXPECT_EQ(j[0]["controls"][0]["shared_functions"][0], "mbedtls_mpi_mul_mpi");
  EXPECT_EQ(j[1]["changed"], false);
  EXPECT_TRUE(j[1]["functions"].empty());
}

}  // namespace
}  // namespace fathom::compare
