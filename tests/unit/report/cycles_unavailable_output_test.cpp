// An operation measured by instructions only (a QEMU run: the KAT passed, instruction samples,
// no cycle counter) in every report format: it counts as measured, and cycles, time and ratio
// are printed as unavailable, never as a number.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "report/benchmark_tables.h"
#include "report/csv_writer.h"
#include "report/gbench_writer.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/summary.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

using fixture::wide_table;
using fixture::written;

model::OperationResult instructions_only(const std::string& name,
                                         std::vector<uint64_t> instructions) {
  model::OperationResult op = fixture::passed_op(name, {});
  op.cycle_samples.clear();
  op.cycles.reset();
  op.instruction_samples = std::move(instructions);
  op.instructions = model::summarize(op.instruction_samples);
  return op;
}

// Two configurations on a QEMU board, so that a ratio and a fastest mark could be made.
model::RunResult qemu_run() {
  model::RunResult run;
  run.suite = "default";
  for (const char* config : {"mbedtls", "mbedtls-no-nist-optim"}) {
    auto img = fixture::image(config);
    img.board = img.provenance.board = "qemu-mps2-an386";
    img.provenance.target = "qemu";
    img.operations.push_back(instructions_only("sha256_1k", {31415, 31415, 31416}));
    run.images.push_back(img);
  }
  return run;
}

std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

TEST(CyclesUnavailableOutput, TheOperationCountsAsMeasured) {
  const auto op = instructions_only("sha256_1k", {10, 12});
  EXPECT_TRUE(op.is_measured());
  EXPECT_TRUE(op.has_instructions_only());
  EXPECT_FALSE(op.has_timing());
  auto failed = op;
  failed.kat = model::KatStatus::kFailed;  // the KAT gate applies to instructions too
  EXPECT_FALSE(failed.is_measured());
  const Summary summary = summarize_run(qemu_run(), RowOrder::kOperation);
  ASSERT_EQ(summary.rows.size(), 2u);
  for (const auto& row : summary.rows) {
    EXPECT_TRUE(row.timed);
    EXPECT_TRUE(row.cycles_unavailable);
    EXPECT_FALSE(row.time_us.has_value());
    EXPECT_FALSE(row.ratio.has_value());
    EXPECT_EQ(row.fastest, FastestMark::kNone);
  }
}

TEST(CyclesUnavailableOutput, TablePrintsNaWithTheNote) {
  const std::string table = wide_table(qemu_run());
  const std::string row = line_with(table, "sha256_1k");
  ASSERT_FALSE(row.empty()) << table;
  EXPECT_NE(row.find("n/a"), std::string::npos) << row;
  EXPECT_NE(row.find("31,415"), std::string::npos) << row;  // the instruction median
  EXPECT_NE(table.find(kCyclesUnavailableNote), std::string::npos) << table;
  EXPECT_EQ(row.find('*'), std::string::npos) << row;  // no fastest mark without cycles
}

TEST(CyclesUnavailableOutput, CompactTableShowsTheInstructions) {
  const std::string table = written<TableWriter>(qemu_run());
  const std::string row = line_with(table, "sha256_1k");
  ASSERT_FALSE(row.empty()) << table;
  EXPECT_NE(row.find("n/a"), std::string::npos) << row;
  EXPECT_NE(row.find("31,415"), std::string::npos) << row;  // the instruction median
  EXPECT_NE(table.find(" instructions "), std::string::npos) << table;
  // A simulator's compact table has cycles, not this column.
  EXPECT_EQ(written<TableWriter>(fixture::make_run(2)).find("instructions"), std::string::npos);
}

TEST(CyclesUnavailableOutput, SimulatorTablesHaveNoNote) {
  const std::string table = wide_table(fixture::make_run(2));
  EXPECT_EQ(table.find(kCyclesUnavailableNote), std::string::npos) << table;
  EXPECT_EQ(table.find("n/a"), std::string::npos) << table;
}

TEST(CyclesUnavailableOutput, MarkdownAndBenchmarkTablesSayNa) {
  const auto run = qemu_run();
  const std::string md = written<MarkdownWriter>(run);
  EXPECT_NE(line_with(md, "sha256_1k").find("n/a"), std::string::npos) << md;
  EXPECT_NE(md.find(kCyclesUnavailableNote), std::string::npos) << md;
  const std::string tables = written<BenchmarkTablesWriter>(run);
  const std::string speed = line_with(tables, "sha256_1k");
  EXPECT_NE(speed.find("| n/a"), std::string::npos) << tables;
  EXPECT_NE(tables.find(kCyclesUnavailableNote), std::string::npos) << tables;
}

TEST(CyclesUnavailableOutput, CsvLeavesCyclesEmptyAndHasInstructions) {
  const std::string csv = written<CsvWriter>(qemu_run());
  const std::string row = line_with(csv, ",sha256_1k,");
  ASSERT_FALSE(row.empty()) << csv;
  // runs 3, no distinct inputs, five empty cycle fields, the instruction median, no time.
  EXPECT_NE(row.find("sha256_1k,pass,,3,,,,,,,31415,,"), std::string::npos) << row;
}

TEST(CyclesUnavailableOutput, JsonHasNullCyclesAndTheInstructions) {
  const auto doc = nlohmann::json::parse(written<JsonWriter>(qemu_run()));
  const auto& op = doc["images"][0]["operations"][0];
  EXPECT_TRUE(op["statistics"]["cycles"].is_null());
  EXPECT_TRUE(op["samples"]["cycles"].empty());
  EXPECT_EQ(op["statistics"]["instructions"]["median"], 31415);
  EXPECT_EQ(op["samples"]["instructions"].size(), 3u);
}

TEST(CyclesUnavailableOutput, GbenchHasNoTimeButSaysWhy) {
  const auto doc = nlohmann::json::parse(written<GbenchWriter>(qemu_run()));
  for (const auto& b : doc["benchmarks"])
    EXPECT_EQ(b["name"].get<std::string>().find("sha256_1k"), std::string::npos) << b.dump();
  const std::string errors = doc["context"]["errors"];
  EXPECT_NE(errors.find(kCyclesUnavailableNote), std::string::npos) << errors;
  EXPECT_NE(errors.find("31415 instructions"), std::string::npos) << errors;
}

}  // namespace
}  // namespace fathom::report
