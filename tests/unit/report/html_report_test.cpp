#include "report/html_report.h"

#include <gtest/gtest.h>

#include <sstream>

#include "../model/full_run_fixture.h"

namespace fathom::report {
namespace {

TEST(HtmlReport, RawTextIsEscapedSoNoElementEndsEarly) {
  EXPECT_EQ(escape_for_raw_text_element("a</script>b"), "a<\\/script>b");
  EXPECT_EQ(escape_for_raw_text_element("x<!--y"), "x<\\!--y");
  EXPECT_EQ(escape_for_raw_text_element("1 < 2 && a<b"), "1 < 2 && a<b");
  EXPECT_EQ(escape_for_raw_text_element("ends with <"), "ends with <");
}

TEST(HtmlReport, PageEmbedsEverythingAndNoNameEndsItsScript) {
  model::RunResult run = model::fixture::full_run();
  run.images[0].configuration = "evil</script><script>alert(1)</script>";
  HtmlAssets assets;
  assets.d3_js = "var d3 = {};";
  assets.flame_graph_js = "var flamegraph = {};";
  assets.flame_graph_css = ".d3-flame-graph rect { stroke: #eee; }";
  assets.d3_license = "Copyright d3";
  assets.flame_graph_license = "Apache License";
  HtmlReport page;
  page.result = &run;
  FlameGraph f;
  f.configuration = "mbedtls";
  f.board = "sim-m33";
  f.operation = "sha256_1k";
  f.tree = {{"name", "main"}, {"value", 10}, {"children", nlohmann::ordered_json::array()}};
  page.flames.push_back(f);
  std::ostringstream out;
  write_html_report(page, assets, out);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  // One data element and three scripts of code end where they should ("</script" is the only
  // text that ends a script element; "<!--" could start an escaped state), and nothing is
  // fetched from elsewhere.
  size_t ends = 0;
  for (size_t at = html.find("</script"); at != std::string::npos; at = html.find("</script", at + 1))
    ++ends;
  EXPECT_EQ(ends, 4u) << "the configuration's name ended a script element";
  EXPECT_EQ(html.find("<!--"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("var d3 = {};"), std::string::npos);
  EXPECT_NE(html.find("Apache License"), std::string::npos);
  EXPECT_NE(html.find("evil<\\/script>"), std::string::npos);
  EXPECT_NE(html.find("\"operation\":\"sha256_1k\""), std::string::npos);
}

// The page's data carries the diagnosis tables, the notes on what was not profiled and the
// trend, under the names the page's script reads.
TEST(HtmlReport, DataCarriesDiagnosesNotesAndTrend) {
  model::RunResult run = model::fixture::full_run();
  HtmlReport page;
  page.result = &run;
  page.result_label = "run 4 'nightly'";
  FlameGraph f;
  f.configuration = "wolfssl";
  f.board = "sim-m33";
  f.operation = "sha256_1k";
  f.kind = FlameGraph::Kind::kComparison;
  f.against = "wolfssl @ sim-m33 in a.json";
  f.tree = {{"name", "main"}, {"value", 10}, {"delta", 2}};
  page.flames.push_back(f);
  page.diagnoses.push_back({"comparison", "wolfssl @ sim-m33 in a.json", "wolfssl @ sim-m33",
                            nlohmann::ordered_json::array({{{"operation", "sha256_1k"}}})});
  page.profile_notes.push_back("A's mbedtls @ sim-m33: not profiled");
  page.trend = {{"metric", "cycles"}, {"runs", nlohmann::ordered_json::array()}};
  std::ostringstream out;
  write_html_report(page, HtmlAssets{}, out);
  const std::string html = out.str();
  const std::string open = "<script type=\"application/json\" id=\"fathom-data\">";
  const size_t at = html.find(open);
  ASSERT_NE(at, std::string::npos);
  const size_t end = html.find("</script>", at);
  const auto data = nlohmann::json::parse(html.substr(at + open.size(), end - at - open.size()));
  EXPECT_EQ(data["result_label"], "run 4 'nightly'");
  EXPECT_EQ(data["flames"][0]["kind"], "comparison");
  EXPECT_EQ(data["flames"][0]["against"], "wolfssl @ sim-m33 in a.json");
  EXPECT_EQ(data["diagnoses"][0]["kind"], "comparison");
  EXPECT_EQ(data["diagnoses"][0]["image_b"], "wolfssl @ sim-m33");
  EXPECT_EQ(data["diagnoses"][0]["operations"][0]["operation"], "sha256_1k");
  EXPECT_EQ(data["profile_notes"][0], "A's mbedtls @ sim-m33: not profiled");
  EXPECT_EQ(data["trend"]["metric"], "cycles");

  HtmlReport plain;
  plain.result = &run;
  std::ostringstream plain_out;
  write_html_report(plain, HtmlAssets{}, plain_out);
  EXPECT_NE(plain_out.str().find("\"trend\":null"), std::string::npos);
  EXPECT_NE(plain_out.str().find("\"diagnoses\":[]"), std::string::npos);
}

}  // namespace
}  // namespace fathom::report
