#include "report/writer.h"

#include <gtest/gtest.h>

#include <sstream>

#include "report/summary.h"
#include "run_fixture.h"

namespace fathom::report {
namespace {

std::string render(std::string_view format, const model::RunResult& run) {
  auto writer = make_writer(format);
  EXPECT_TRUE(writer.has_value()) << format;
  std::ostringstream out;
  (*writer)->write(run, out);
  return out.str();
}

TEST(Writer, FactoryKnowsEveryFormatAndListsThemOnError) {
  for (const auto& format : writer_formats())
    EXPECT_TRUE(make_writer(format).has_value()) << format;
  auto unknown = make_writer("xml");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_EQ(unknown.error().message,
            "unknown report format 'xml'; use one of: table, json, csv, markdown, gbench, "
            "github-benchmark, pqm4-md");
}

TEST(Writer, FailedKatShowsNoMeasuredNumberInAnyFormat) {
  const auto run = fixture::make_run(3);
  for (const auto& format : writer_formats()) {
    const std::string text = render(format, run);
    for (uint64_t poison :
         {fixture::kPoisonCycles, fixture::kPoisonInstructions, fixture::kPoisonStackBytes}) {
      EXPECT_EQ(text.find(std::to_string(poison)), std::string::npos) << format;
      EXPECT_EQ(text.find(with_thousands(poison)), std::string::npos) << format;
    }
    // The failed operation itself is still reported, except by github-benchmark, whose entries
    // are measured cycles only (the command names what it left out on stderr).
    if (format != "github-benchmark") {
      EXPECT_NE(text.find("rfc6979-a.2.5-sha256"), std::string::npos) << format;
    }
  }
}

TEST(Writer, EveryFormatIsDeterministicAndHandlesAnEmptyRun) {
  model::RunResult empty;
  empty.suite = "empty";
  for (const auto& format : writer_formats()) {
    EXPECT_EQ(render(format, fixture::make_run(3)), render(format, fixture::make_run(3))) << format;
    EXPECT_FALSE(render(format, empty).empty()) << format;
  }
}

TEST(Writer, ImageFaultIsListedInEveryHumanFormat) {
  const auto run = fixture::make_run(3);
  for (const char* format : {"table", "markdown"})
    EXPECT_NE(render(format, run)
                  .find("broken on sim-m33: fault hardfault at 0x00001234 in foo: bad access"),
              std::string::npos)
        << format;
}

}  // namespace
}  // namespace fathom::report
