// Which execution's memory the simulator's figures come from: the one the harness's MEM record
// measured (firmware/harness/fathom_harness.c), told apart by the harness function that called
// the operation's run function. An image assembled with the harness's function names stands in
// for a harness image; the executions are what profile::MemoryWatch would report.
#include "target/simulator_memory.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "../sim/assembled_image.h"

namespace fathom::target {
namespace {

// Four functions of 8 bytes each from 0x100: time_operation (warm-up runs), timed_run, its
// GCC clone's name for memory_run, and timed_runner (a name timed_run is a prefix of).
constexpr const char* kSource = R"(
  .syntax unified
  .thumb
  .section .vectors, "a"
  .word 0x20001000
  .word reset + 1
  .text
  .macro fn name
  .type \name, %function
  .global \name
\name:
  nop
  nop
  nop
  bx lr
  .size \name, . - \name
  .endm
  fn reset
  fn time_operation
  fn timed_run
  fn memory_run.constprop.0
  fn timed_runner
)";

class SimulatorMemoryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // Per process: ctest runs this suite's tests in parallel, each in its own process.
    dir_ = std::filesystem::temp_directory_path() /
           ("fathom-simulator-memory-test-" + std::to_string(::getpid()));
    const auto built = fathom::testing::assemble_image(dir_, "harness_names", kSource);
    if (built.elf.empty() && built.error.empty()) GTEST_SKIP() << "no Arm toolchain";
    ASSERT_TRUE(built.error.empty()) << built.error;
    auto image = elf::ElfImage::load(built.elf);
    ASSERT_TRUE(image) << image.error().message;
    image_.emplace(std::move(*image));
    for (const char* name : {"time_operation", "timed_run", "memory_run.constprop.0",
                             "timed_runner"}) {
      const elf::Symbol* s = image_->find_symbol(name);
      ASSERT_NE(s, nullptr) << name;
      address_[name] = (s->address & ~1u) + 2;  // inside the function
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // An execution of `op` called from `caller` whose figures are all `figure`.
  WatchedExecution execution(const std::string& caller, uint64_t figure,
                             const std::string& op = "sha256_1k") {
    WatchedExecution e;
    e.operation = op;
    e.call_address = address_.at(caller);
    e.returned = true;
    e.peak_stack_bytes = figure;
    e.heap_start_bytes = 0;
    e.heap_peak_bytes = figure;
    e.allocations = figure;
    return e;
  }

  // The simulator's peak stack for `op` from these executions.
  std::optional<uint64_t> chosen(const std::vector<WatchedExecution>& executions) {
    model::OperationResult op;
    op.operation = "sha256_1k";
    add_simulator_memory(*image_, executions, op);
    return op.sim_peak_stack_bytes;
  }

  std::optional<elf::ElfImage> image_;
  std::map<std::string, uint32_t> address_;
  std::filesystem::path dir_;
};

TEST_F(SimulatorMemoryTest, TheMemoryRunWinsWhereTheHarnessMadeOne) {
  EXPECT_EQ(chosen({execution("time_operation", 100), execution("timed_run", 200),
                    execution("timed_run", 300), execution("memory_run.constprop.0", 400),
                    execution("timed_run", 500)}),
            400u);
}

TEST_F(SimulatorMemoryTest, WithoutOneTheFirstTimedRunIsTheMeasuredOne) {
  // Warm-up runs come from time_operation itself; the harness measured the first timed run.
  EXPECT_EQ(chosen({execution("time_operation", 100), execution("timed_run", 200),
                    execution("timed_run", 300)}),
            200u);
  // A function whose name merely starts with timed_run is not it.
  EXPECT_EQ(chosen({execution("timed_runner", 100), execution("timed_run", 200)}), 200u);
}

TEST_F(SimulatorMemoryTest, OtherwiseTheLastReturnedExecutionOfThatOperation) {
  auto unfinished = execution("time_operation", 300);
  unfinished.returned = false;
  EXPECT_EQ(chosen({execution("timed_runner", 100), execution("time_operation", 200),
                    unfinished, execution("timed_run", 900, "other_op")}),
            200u);
  EXPECT_EQ(chosen({execution("timed_run", 900, "other_op")}), std::nullopt);
}

TEST_F(SimulatorMemoryTest, TheHarnessFiguresAreComparedWithTheMeasuredExecution) {
  model::OperationResult op;
  op.operation = "sha256_1k";
  op.peak_stack_bytes = 200;
  op.heap_peak_bytes = 200;
  op.allocations = 200;
  op.heap_start_bytes = 0;
  add_simulator_memory(*image_, {execution("timed_run", 200), execution("timed_run", 300)}, op);
  EXPECT_EQ(op.memory_mismatch, "");
  op.peak_stack_bytes = 300;  // what a later run would give: a disagreement
  add_simulator_memory(*image_, {execution("timed_run", 200), execution("timed_run", 300)}, op);
  EXPECT_NE(op.memory_mismatch.find("peak stack 300 bytes painted by the harness, 200 from"),
            std::string::npos)
      << op.memory_mismatch;
}

}  // namespace
}  // namespace fathom::target
