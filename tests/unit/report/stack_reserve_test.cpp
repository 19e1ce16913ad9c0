// Stack deeper than the board's reserve (report/stack_reserve.h): named with its depth and the
// reserve under the table, in the markdown and in the JSON, and the reserve reads back from a
// results file.
#include "report/stack_reserve.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "compare/result_file.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

// The fixture's two configurations on a board reserving 32 KiB; the baseline's ecdsa_p256_sign
// is 53,248 bytes deep as the simulator saw it (52 KiB; the harness's paint saw less). The
// second image's failed ecdsa_p256_sign holds a poisoned 555,555-byte figure.
model::RunResult deep_run() {
  model::RunResult run = fixture::make_run(2);
  for (auto& image : run.images) image.provenance.stack_reserve_bytes = 32768;
  run.images[0].operations[1].peak_stack_bytes = 40000;
  run.images[0].operations[1].sim_peak_stack_bytes = 53248;
  return run;
}

using fixture::written;

const char* const kWarning =
    "WARNING: ecdsa_p256_sign (mbedtls on sim-m33) used 53,248 bytes of stack, more than the "
    "board's 32,768-byte stack reserve: on the part it would overrun its stack";

TEST(StackReserve, OnlyAPassingOperationDeeperThanTheReserveIsFlagged) {
  const auto run = deep_run();
  const auto overruns = stack_overruns(run);
  ASSERT_EQ(overruns.size(), 1u);
  EXPECT_EQ(overruns[0].operation->operation, "ecdsa_p256_sign");
  EXPECT_EQ(overruns[0].image->configuration, "mbedtls");
  EXPECT_EQ(overruns[0].peak_stack_bytes, 53248u);
  EXPECT_EQ(stack_overrun_text(overruns[0]), kWarning);
  // At the reserve exactly: fits. Unknown reserve: nothing to say.
  auto fits = deep_run();
  fits.images[0].operations[1].sim_peak_stack_bytes = 32768;
  fits.images[0].operations[1].peak_stack_bytes = 32768;
  EXPECT_TRUE(stack_overruns(fits).empty());
  auto unknown = deep_run();
  for (auto& image : unknown.images) image.provenance.stack_reserve_bytes = 0;
  EXPECT_TRUE(stack_overruns(unknown).empty());
}

TEST(StackReserve, TableAndMarkdownCarryTheWarning) {
  const std::string table = written<TableWriter>(deep_run());
  EXPECT_NE(table.find(std::string("\n") + kWarning + "\n"), std::string::npos) << table;
  EXPECT_EQ(table.find("WARNING", table.find(kWarning) + 1), std::string::npos) << table;
  EXPECT_EQ(written<TableWriter>(fixture::make_run(2)).find("WARNING"), std::string::npos);
  const std::string md = written<MarkdownWriter>(deep_run());
  EXPECT_NE(md.find("### Stack reserve exceeded"), std::string::npos) << md;
  EXPECT_NE(md.find(std::string("- **") + kWarning + "**"), std::string::npos) << md;
}

TEST(StackReserve, JsonHasTheWarningAndTheReserveReadsBack) {
  const std::string text = written<JsonWriter>(deep_run());
  const auto doc = nlohmann::json::parse(text);
  ASSERT_EQ(doc["warnings"].size(), 1u);
  const auto& w = doc["warnings"][0];
  EXPECT_EQ(w["kind"], "stack-reserve-exceeded");
  EXPECT_EQ(w["configuration"], "mbedtls");
  EXPECT_EQ(w["operation"], "ecdsa_p256_sign");
  EXPECT_EQ(w["peak_stack_bytes"], 53248);
  EXPECT_EQ(w["stack_reserve_bytes"], 32768);
  EXPECT_EQ(w["message"], kWarning);
  EXPECT_EQ(doc["images"][0]["provenance"]["stack_reserve_bytes"], 32768);
  auto read = compare::parse_result_json(text, "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(read->images[0].provenance.stack_reserve_bytes, 32768u);
  EXPECT_EQ(stack_overruns(*read).size(), 1u);
}

}  // namespace
}  // namespace fathom::report
