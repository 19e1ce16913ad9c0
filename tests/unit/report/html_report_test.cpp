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

}  // namespace
}  // namespace fathom::report
