// The host's encoding of the run parameters, read back through the harness's own struct
// (firmware/harness/fathom_params.h): what the firmware sees is what the host meant.
#include "target/run_parameters.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "fathom_params.h"

namespace fathom::target {
namespace {

fathom_params_t as_harness_reads_it(const std::vector<uint8_t>& bytes) {
  fathom_params_t params;
  EXPECT_EQ(bytes.size(), sizeof params);
  std::memcpy(&params, bytes.data(), std::min(bytes.size(), sizeof params));
  return params;
}

const std::vector<std::string> kRegistry = {"sha256_64", "sha256_1k", "ecdsa_p256_sign",
                                            "ecdsa_p256_verify"};

TEST(RunParameters, RoundTripsThroughTheHarnessLayout) {
  RunParameters in;
  in.runs = 10;
  in.warmup = 1;
  in.operations = {"ecdsa_p256_verify", "sha256_1k"};
  in.operation_runs = {{"sha256_1k", 2}, {"ecdsa_p256_verify", 7}};
  auto bytes = encode_parameter_bytes(in, kRegistry, "img");
  ASSERT_TRUE(bytes) << bytes.error().message;
  const fathom_params_t p = as_harness_reads_it(*bytes);
  EXPECT_EQ(p.magic, FATHOM_PARAMS_MAGIC);
  EXPECT_EQ(p.runs, 10u);
  EXPECT_EQ(p.warmup, 1u);
  EXPECT_STREQ(p.only_ops, "ecdsa_p256_verify,sha256_1k");
  // By registry index; 0 = HELLO's runs.
  EXPECT_EQ(p.op_runs[0], 0u);
  EXPECT_EQ(p.op_runs[1], 2u);
  EXPECT_EQ(p.op_runs[2], 0u);
  EXPECT_EQ(p.op_runs[3], 7u);
  for (size_t i = 4; i < FATHOM_MAX_OPS; ++i) EXPECT_EQ(p.op_runs[i], 0u) << i;
  EXPECT_EQ(p.flags, 0u);  // a board: stack and heap in an extra untimed run
}

TEST(RunParameters, MemoryInTimedRunReachesTheHarnessAsItsFlag) {
  RunParameters in;
  in.memory_in_timed_run = true;
  auto bytes = encode_parameter_bytes(in, {}, "img");
  ASSERT_TRUE(bytes) << bytes.error().message;
  const fathom_params_t p = as_harness_reads_it(*bytes);
  EXPECT_EQ(p.flags, FATHOM_PARAM_MEMORY_IN_TIMED_RUN);
}

TEST(RunParameters, WithoutPerOperationCountsEveryOperationMakesRuns) {
  RunParameters in;
  in.runs = 3;
  in.warmup = 0;
  auto bytes = encode_parameter_bytes(in, {}, "img");  // no registry needed
  ASSERT_TRUE(bytes) << bytes.error().message;
  const fathom_params_t p = as_harness_reads_it(*bytes);
  EXPECT_EQ(p.runs, 3u);
  EXPECT_EQ(p.warmup, 0u);
  EXPECT_STREQ(p.only_ops, "");
  for (size_t i = 0; i < FATHOM_MAX_OPS; ++i) EXPECT_EQ(p.op_runs[i], 0u) << i;
}

TEST(RunParameters, BadPerOperationCountsAreErrors) {
  RunParameters unknown;
  unknown.operation_runs = {{"aes", 2}};
  auto a = encode_parameter_bytes(unknown, kRegistry, "img.elf");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "'img.elf' has no operation 'aes' to give 2 timed runs");

  RunParameters zero;
  zero.operation_runs = {{"sha256_1k", 0}};
  auto z = encode_parameter_bytes(zero, kRegistry, "img.elf");
  ASSERT_FALSE(z);
  EXPECT_EQ(z.error().message, "0 timed runs for operation 'sha256_1k'");

  std::vector<std::string> long_registry;
  for (int i = 0; i < 70; ++i) long_registry.push_back("op" + std::to_string(i));
  RunParameters beyond;
  beyond.operation_runs = {{"op64", 2}};
  auto b = encode_parameter_bytes(beyond, long_registry, "img.elf");
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().message.find("per-operation run counts reach only the first 64"),
            std::string::npos);
  beyond.operation_runs = {{"op63", 2}};
  auto last = encode_parameter_bytes(beyond, long_registry, "img.elf");
  ASSERT_TRUE(last) << last.error().message;
  EXPECT_EQ(as_harness_reads_it(*last).op_runs[63], 2u);
}

TEST(RunParameters, TooManyOperationNamesAreAnError) {
  RunParameters in;
  for (int i = 0; i < 60; ++i) in.operations.push_back("operation_name_" + std::to_string(i));
  auto bytes = encode_parameter_bytes(in, {}, "img");
  ASSERT_FALSE(bytes);
  EXPECT_NE(bytes.error().message.find("too many operations selected"), std::string::npos);
}

}  // namespace
}  // namespace fathom::target
