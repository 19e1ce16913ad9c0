// An operation that has no timing by design (OperationResult::not_timed: a library gate such as
// wolfCrypt's self-test, pipeline/library_gate.h) in every report format and back from a results
// file: it is marked "not timed" and never shows a cycle, time or memory figure, and nothing
// treats it as a timing (no fastest mark, no ratio, no gbench entry).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "compare/comparison.h"
#include "compare/result_file.h"
#include "pipeline/library_gate.h"
#include "report/benchmark_tables.h"
#include "report/csv_writer.h"
#include "report/gbench_writer.h"
#include "report/json_writer.h"
#include "report/markdown_writer.h"
#include "report/table_writer.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

// Two configurations, each with a gate "selftest" whose KAT passed and whose trivial timed run
// left residue figures (10 cycles, 5 instructions), put through the library gate as the
// pipeline does.
model::RunResult run_with_gate() {
  model::RunResult run = fixture::make_run(2);
  build::LibraryDescription lib;
  lib.name = "gated";
  lib.gate_operations = {"selftest"};
  for (auto& image : run.images) {
    auto gate = fixture::passed_op("selftest", {10, 10, 11});
    gate.instruction_samples = {5, 5, 5};
    gate.instructions = model::summarize(gate.instruction_samples);
    gate.peak_stack_bytes = 77;
    image.operations.push_back(gate);
    EXPECT_TRUE(pipeline::enforce_library_gate(image.operations, lib));
  }
  return run;
}

using fixture::written;

std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

// The first line of `text` that starts with `start` and contains `needle`, or "".
std::string line_starting(const std::string& text, const std::string& start,
                          const std::string& needle) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind(start, 0) == 0 && line.find(needle) != std::string::npos) return line;
  return "";
}

TEST(NotTimedOutput, TableShowsNoFigureAndSaysWhy) {
  const std::string table = fixture::wide_table(run_with_gate());
  for (const char* config : {"mbedtls ", "mbedtls-no-nist-optim "}) {
    const std::string row = line_starting(table, config, "selftest");
    ASSERT_FALSE(row.empty()) << table;
    EXPECT_NE(row.find("not timed: library gate"), std::string::npos) << row;
    EXPECT_EQ(row.find(" 10 "), std::string::npos) << row;
    EXPECT_EQ(row.find(" 5 "), std::string::npos) << row;
    EXPECT_EQ(row.find("0.08"), std::string::npos) << row;
    EXPECT_EQ(row.find("77"), std::string::npos) << row;
    EXPECT_EQ(row.find('*'), std::string::npos) << row;     // never the fastest
    EXPECT_NE(row.find("pass"), std::string::npos) << row;  // its KAT result stays
  }
}

TEST(NotTimedOutput, MarkdownAndBenchmarkTablesSayNotTimed) {
  const auto run = run_with_gate();
  const std::string md = written<MarkdownWriter>(run);
  const std::string row = line_with(md, "| selftest");
  EXPECT_NE(row.find("not timed: library gate"), std::string::npos) << md;
  EXPECT_EQ(row.find("| 10 "), std::string::npos) << row;
  const std::string tables = written<BenchmarkTablesWriter>(run);
  const std::string speed = line_with(tables, "selftest");
  EXPECT_NE(speed.find("not timed"), std::string::npos) << tables;
  EXPECT_EQ(speed.find("| 10 "), std::string::npos) << speed;
}

TEST(NotTimedOutput, CsvHasNoFigureAndANotTimedColumn) {
  const std::string csv = written<CsvWriter>(run_with_gate());
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_NE(header.find(",error,not_timed"), std::string::npos) << header;
  const std::string row = line_with(csv, ",selftest,");
  ASSERT_FALSE(row.empty()) << csv;
  EXPECT_NE(row.find("selftest,pass,,,,,,,,,,,"), std::string::npos) << row;
  // The reason has a comma: RFC 4180 quotes it.
  EXPECT_NE(row.find(std::string(",\"") + pipeline::kGateNotTimed + "\""), std::string::npos)
      << row;
}

TEST(NotTimedOutput, JsonHasNullFiguresAndReadsBackAsNotTimed) {
  const std::string text = written<JsonWriter>(run_with_gate());
  const auto doc = nlohmann::json::parse(text);
  const auto& gate = doc["images"][0]["operations"][2];
  ASSERT_EQ(gate["operation"], "selftest");
  EXPECT_EQ(gate["kat"]["status"], "passed");
  EXPECT_EQ(gate["not_timed"], pipeline::kGateNotTimed);
  EXPECT_TRUE(gate["error"].is_null());
  EXPECT_TRUE(gate["samples"]["cycles"].empty());
  EXPECT_TRUE(gate["statistics"]["cycles"].is_null());
  EXPECT_TRUE(gate["statistics"]["instructions"].is_null());
  EXPECT_TRUE(gate["memory"]["peak_stack_bytes"].is_null());
  EXPECT_TRUE(doc["images"][0]["operations"][0]["not_timed"].is_null());

  auto read = compare::parse_result_json(text, "r.json");
  ASSERT_TRUE(read.has_value()) << read.error().message;
  const auto& back = read->images[0].operations[2];
  EXPECT_EQ(back.not_timed, pipeline::kGateNotTimed);
  EXPECT_FALSE(back.has_timing());
  // compare never judges it as a timing.
  const auto cmp = compare::compare_runs(*read, *read, {});
  size_t judged = 0;
  for (const auto& image : cmp.images)
    for (const auto& op : image.operations) {
      if (op.operation != "selftest") continue;
      for (const auto& m : op.metrics) {
        EXPECT_EQ(m.verdict, compare::Verdict::kNoTiming);
        ++judged;
      }
    }
  EXPECT_GT(judged, 0u);
}

TEST(NotTimedOutput, GbenchWritesNoEntryAndNamesItInTheContext) {
  const std::string text = written<GbenchWriter>(run_with_gate());
  const auto doc = nlohmann::json::parse(text);
  for (const auto& b : doc["benchmarks"])
    EXPECT_EQ(b["name"].get<std::string>().find("selftest"), std::string::npos) << b.dump();
  EXPECT_EQ(doc["context"]["not_timed"], "mbedtls/selftest, mbedtls-no-nist-optim/selftest");
}

}  // namespace
}  // namespace fathom::report
