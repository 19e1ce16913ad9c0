// Fixed-input operations whose samples differed on a deterministic target
// (report/sample_spread.h): warned about under the table, in the markdown and in the JSON; the
// table marks operations given fewer runs "(det.)".
#include "report/sample_spread.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "compare/result_file.h"
#include "pipeline/run_selection.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

using fixture::wide_table;
using fixture::written;

// The fixture's baseline with the runs recorded as a deterministic target selects them:
// sha256_1k two identical runs, ecdsa_p256_sign two runs that differ (undeclared).
model::RunResult deterministic_run() {
  model::RunResult run = fixture::make_run(1);
  auto& ops = run.images[0].operations;
  ops[0] = fixture::passed_op("sha256_1k", {1280, 1280});
  ops[1] = fixture::passed_op("ecdsa_p256_sign", {4'000'000, 4'000'100});
  pipeline::RunSelectionInputs in;
  in.suite_runs = 10;
  in.deterministic_target = true;
  pipeline::record_runs(ops, pipeline::select_runs(in, std::vector<std::string>{"sha256_1k", "ecdsa_p256_sign"}));
  return run;
}

const char* const kWarning =
    "WARNING: ecdsa_p256_sign (mbedtls on sim-m33): its 2 timed runs differ on a deterministic "
    "target (4,000,000 to 4,000,100 cycles), so its input is not fixed per run: declare it in "
    "the suite's fresh_inputs to measure it with the suite's runs";

TEST(SampleSpread, OnlyAFixedInputOperationWhoseSamplesDifferIsListed) {
  const auto run = deterministic_run();
  const auto spreads = fixed_input_spreads(run);
  ASSERT_EQ(spreads.size(), 1u);
  EXPECT_EQ(spreads[0].operation->operation, "ecdsa_p256_sign");
  EXPECT_EQ(sample_spread_text(spreads[0]), kWarning);

  // Declared (the suite's runs): differing samples are expected.
  auto declared = deterministic_run();
  declared.images[0].operations[1].runs_reason = model::RunsReason::kFreshInputs;
  EXPECT_TRUE(fixed_input_spreads(declared).empty());
  // Distinct inputs by the firmware's own declaration (INPUTS): differ by design.
  auto distinct = deterministic_run();
  distinct.images[0].operations[1].distinct_inputs = 2;
  EXPECT_TRUE(fixed_input_spreads(distinct).empty());
  // A failed KAT has no figures to judge.
  auto failed = deterministic_run();
  failed.images[0].operations[1].kat = model::KatStatus::kFailed;
  EXPECT_TRUE(fixed_input_spreads(failed).empty());
}

TEST(SampleSpread, TableShowsTheRunsCompactlyAndTheWarning) {
  const std::string table = wide_table(deterministic_run());
  EXPECT_NE(table.find("2 (det.)"), std::string::npos) << table;
  EXPECT_NE(table.find("(det.): a deterministic target repeats the operation's fixed input"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(std::string("\n") + kWarning + "\n"), std::string::npos) << table;
  // Without fixed-input operations: neither the mark nor its note nor a warning.
  const std::string plain = wide_table(fixture::make_run(2));
  EXPECT_EQ(plain.find("(det.)"), std::string::npos) << plain;
  EXPECT_EQ(plain.find("WARNING"), std::string::npos) << plain;
  const std::string md = written<MarkdownWriter>(deterministic_run());
  EXPECT_NE(md.find("### Samples differ"), std::string::npos) << md;
  EXPECT_NE(md.find(std::string("- **") + kWarning + "**"), std::string::npos) << md;
}

TEST(SampleSpread, JsonCarriesTheFieldsAndTheWarningAndReadsBack) {
  const std::string text = written<JsonWriter>(deterministic_run());
  const auto doc = nlohmann::json::parse(text);
  ASSERT_EQ(doc["warnings"].size(), 1u);
  const auto& w = doc["warnings"][0];
  EXPECT_EQ(w["kind"], "samples-differ");
  EXPECT_EQ(w["configuration"], "mbedtls");
  EXPECT_EQ(w["board"], "sim-m33");
  EXPECT_EQ(w["operation"], "ecdsa_p256_sign");
  EXPECT_EQ(w["message"], kWarning);
  const auto& sha = doc["images"][0]["operations"][0];
  EXPECT_EQ(sha["runs"], 2);
  EXPECT_EQ(sha["runs_reason"], "fixed-inputs");
  EXPECT_EQ(sha["samples_identical"], true);
  EXPECT_EQ(doc["images"][0]["operations"][1]["samples_identical"], false);
  auto read = compare::parse_result_json(text, "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  EXPECT_EQ(fixed_input_spreads(*read).size(), 1u);
}

}  // namespace
}  // namespace fathom::report
