#include "pipeline/library_gate.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <unistd.h>
#include "util/source_dir.h"

namespace fathom::pipeline {
namespace {

const std::filesystem::path kFirmwareDir = std::filesystem::path(fathom::util::source_dir()) / "firmware";

build::LibraryDescription gated_library() {
  build::LibraryDescription lib;
  lib.name = "gated";
  lib.gate_operations = {"selftest"};
  lib.gate_failure = "self-test failed";
  return lib;
}

model::OperationResult timed(const std::string& name) {
  model::OperationResult op;
  op.operation = name;
  op.kat = model::KatStatus::kPassed;
  op.cycle_samples = {100, 101};
  op.cycles = model::Statistics{};
  op.peak_stack_bytes = 256;
  op.heap_peak_bytes = 64;
  op.allocations = 2;
  op.primitive_share["SHA-2"] = 0.5;
  return op;
}

TEST(LibraryGate, GateOperationsAreAddedToAnExplicitSelection) {
  const auto lib = gated_library();
  EXPECT_EQ(with_gate_operations({"sha256_64"}, lib),
            (std::vector<std::string>{"sha256_64", "selftest"}));
  EXPECT_EQ(with_gate_operations({"selftest", "sha256_64"}, lib),
            (std::vector<std::string>{"selftest", "sha256_64"}));
  // Empty = every operation of the image, the gate included.
  EXPECT_TRUE(with_gate_operations({}, lib).empty());
  EXPECT_EQ(with_gate_operations({"sha256_64"}, build::LibraryDescription{}),
            std::vector<std::string>{"sha256_64"});
}

TEST(LibraryGate, APassingGateKeepsEveryOtherTimingAndReportsNoneForItself) {
  std::vector<model::OperationResult> ops = {timed("selftest"), timed("sha256_64")};
  EXPECT_TRUE(enforce_library_gate(ops, gated_library()));
  for (const auto& op : ops) EXPECT_TRUE(op.error.empty()) << op.operation;
  // The other operations keep everything they measured.
  EXPECT_TRUE(ops[1].has_timing());
  EXPECT_EQ(ops[1].peak_stack_bytes.value_or(0), 256u);
  EXPECT_TRUE(ops[1].not_timed.empty());
  // The gate's timed run does nothing: no figure of it is its cost, so none is kept, and it
  // says why (its KAT result stays).
  const auto& gate = ops[0];
  EXPECT_EQ(gate.kat, model::KatStatus::kPassed);
  EXPECT_FALSE(gate.has_timing());
  EXPECT_TRUE(gate.cycle_samples.empty());
  EXPECT_FALSE(gate.peak_stack_bytes.has_value());
  EXPECT_FALSE(gate.heap_peak_bytes.has_value());
  EXPECT_TRUE(gate.primitive_share.empty());
  EXPECT_EQ(gate.not_timed, kGateNotTimed);
}

TEST(LibraryGate, AFailingGateSuppressesEveryTiming) {
  std::vector<model::OperationResult> ops = {timed("selftest"), timed("sha256_64"),
                                             timed("hkdf_sha256")};
  ops[0].kat = model::KatStatus::kFailed;
  ops[0].error = "known-answer test failed: sha-256";
  EXPECT_FALSE(enforce_library_gate(ops, gated_library()));
  for (const auto& op : ops) {
    EXPECT_FALSE(op.has_timing()) << op.operation;
    EXPECT_TRUE(op.cycle_samples.empty());
    EXPECT_FALSE(op.peak_stack_bytes.has_value());
    EXPECT_FALSE(op.heap_peak_bytes.has_value());
    EXPECT_TRUE(op.primitive_share.empty());
  }
  EXPECT_EQ(ops[0].error, "known-answer test failed: sha-256");  // its own reason stays
  EXPECT_EQ(ops[1].error, "self-test failed (selftest: known-answer test failed)");
  EXPECT_EQ(ops[2].error, ops[1].error);
  // The other operations' own KATs passed, and they still say so.
  EXPECT_EQ(ops[1].kat, model::KatStatus::kPassed);
}

TEST(LibraryGate, AMissingGateOperationSuppressesEveryTiming) {
  std::vector<model::OperationResult> ops = {timed("sha256_64")};
  EXPECT_FALSE(enforce_library_gate(ops, gated_library()));
  EXPECT_FALSE(ops[0].has_timing());
  EXPECT_EQ(ops[0].error, "self-test failed (selftest: did not run)");
}

TEST(LibraryGate, ALibraryWithoutGateChangesNothing) {
  std::vector<model::OperationResult> ops = {timed("sha256_64")};
  EXPECT_TRUE(enforce_library_gate(ops, build::LibraryDescription{}));
  EXPECT_TRUE(ops[0].has_timing());
}

TEST(LibraryGate, WolfsslGatesOnItsSelfTest) {
  auto lib = build::load_library(kFirmwareDir, "wolfssl");
  ASSERT_TRUE(lib.has_value()) << lib.error().message;
  EXPECT_EQ(lib->gate_operations, std::vector<std::string>{"wolfcrypt_selftest"});
  EXPECT_EQ(lib->gate_failure, "wolfCrypt self-test failed");
  EXPECT_EQ(lib->config_macro, "WOLFSSL_USER_SETTINGS");
}

TEST(LibraryGate, AGateThatIsNoOperationNameIsRefused) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("fathom-libgate-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "libs" / "x");
  std::ofstream(dir / "libs" / "x" / "library.toml")
      << "name = \"x\"\nversion = \"1\"\nsource = \"x\"\n"
         "gate_operations = [\"Self Test\"]\n";
  auto lib = build::load_library(dir, "x");
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(lib.has_value());
  EXPECT_NE(lib.error().message.find("gate_operations: 'Self Test' is not an operation name"),
            std::string::npos)
      << lib.error().message;
}

}  // namespace
}  // namespace fathom::pipeline
