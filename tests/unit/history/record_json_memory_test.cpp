// history/record_json.h: the simulator's memory figures and the cross-check note, both ways.
#include <gtest/gtest.h>

#include "history/record_json.h"

namespace fathom::history {
namespace {

TEST(SimulatorMemoryJson, RoundTripsFiguresAndMismatch) {
  model::OperationResult op;
  op.sim_peak_stack_bytes = 1848;
  op.sim_heap_peak_bytes = 3693;
  op.sim_allocations = 489;
  op.memory_mismatch = "memory measurements disagree: 1 allocations from the harness, 2 seen";
  model::OperationResult back;
  ASSERT_TRUE(simulator_memory_from_json(simulator_memory_to_json(op), back));
  EXPECT_EQ(back.sim_peak_stack_bytes, op.sim_peak_stack_bytes);
  EXPECT_EQ(back.sim_heap_peak_bytes, op.sim_heap_peak_bytes);
  EXPECT_EQ(back.sim_allocations, op.sim_allocations);
  EXPECT_EQ(back.memory_mismatch, op.memory_mismatch);
}

TEST(SimulatorMemoryJson, MissingFiguresAreNullAndReadBackEmpty) {
  const std::string text = simulator_memory_to_json(model::OperationResult{});
  EXPECT_EQ(text,
            R"({"sim_peak_stack_bytes":null,"sim_heap_peak_bytes":null,"sim_allocations":null,)"
            R"("mismatch":null})");
  model::OperationResult back;
  back.sim_allocations = 7;
  ASSERT_TRUE(simulator_memory_from_json(text, back));
  EXPECT_FALSE(back.sim_allocations);
  EXPECT_TRUE(back.memory_mismatch.empty());
}

TEST(SimulatorMemoryJson, WrongTypesAreOneLineErrorsAndChangeNothing) {
  model::OperationResult op;
  op.sim_peak_stack_bytes = 5;
  auto r = simulator_memory_from_json(R"({"sim_peak_stack_bytes":-3})", op);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "stored simulator memory.sim_peak_stack_bytes: expected null or a non-negative "
            "integer that fits 64 bits");
  EXPECT_EQ(op.sim_peak_stack_bytes, 5u);
  EXPECT_FALSE(simulator_memory_from_json("[1]", op));
  EXPECT_FALSE(simulator_memory_from_json("{", op));
}

}  // namespace
}  // namespace fathom::history
