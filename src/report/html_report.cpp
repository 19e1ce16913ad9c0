#include "report/html_report.h"

#include <sstream>

#include "model/run_result_json.h"
#include "report/html_page.h"
#include "report/json_writer.h"

namespace fathom::report {
namespace {

using Json = nlohmann::ordered_json;

// The results as `fathom run --format json` writes them (with the report's "fastest" marks).
Json results_json(const model::RunResult& run) {
  std::ostringstream text;
  JsonWriter().write(run, text);
  return Json::parse(text.str());
}

std::string html_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

std::string escape_for_raw_text_element(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '<' && i + 1 < text.size() && (text[i + 1] == '/' || text[i + 1] == '!')) {
      out += text[i + 1] == '/' ? "<\\/" : "<\\!";
      ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

void write_html_report(const HtmlReport& report, const HtmlAssets& assets, std::ostream& out) {
  Json data = Json::object();
  data["result"] = results_json(*report.result);
  data["compare"] = report.compare ? results_json(*report.compare) : Json(nullptr);
  data["compare_label"] = report.compare_label;
  Json pairs = Json::array();
  for (const ImagePair& p : report.compare_pairs)
    pairs.push_back({{"a", {{"configuration", p.a_configuration}, {"board", p.a_board}}},
                     {"b", {{"configuration", p.b_configuration}, {"board", p.b_board}}}});
  data["compare_pairs"] = std::move(pairs);
  data["result_label"] = report.result_label;
  data["baseline"] = report.baseline_configuration;
  Json flames = Json::array();
  for (const FlameGraph& f : report.flames) {
    const char* kind = f.kind == FlameGraph::Kind::kProfile        ? "profile"
                       : f.kind == FlameGraph::Kind::kDifferential ? "differential"
                                                                   : "comparison";
    Json entry{{"configuration", f.configuration},
               {"board", f.board},
               {"operation", f.operation},
               {"kind", kind},
               {"against", f.against},
               {"tree", f.tree}};
    flames.push_back(std::move(entry));
  }
  data["flames"] = std::move(flames);
  Json diagnoses = Json::array();
  for (const DiagnosisTable& d : report.diagnoses)
    diagnoses.push_back({{"kind", d.kind},
                         {"image_a", d.image_a},
                         {"image_b", d.image_b},
                         {"operations", d.operations}});
  data["diagnoses"] = std::move(diagnoses);
  data["profile_notes"] = report.profile_notes;
  data["trend"] = report.trend.is_null() ? Json(nullptr) : report.trend;
  data["constant_time"] = report.constant_time.is_null() ? Json(nullptr) : report.constant_time;

  const std::string title = "fathom report: suite " + report.result->suite;
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>" << html_escape(title) << "</title>\n"
      << "<style>\n" << escape_for_raw_text_element(assets.flame_graph_css) << "\n</style>\n"
      << "<style>\n" << escape_for_raw_text_element(std::string(html_page_style())) << "\n</style>\n"
      << "</head>\n<body>\n"
      << "<h1 id=\"title\">" << html_escape(title) << "</h1>\n<p id=\"subtitle\"></p>\n"
      << "<ul id=\"fathom-errors\" hidden></ul>\n<main></main>\n"
      << "<footer><p class=\"note\">Written by fathom. Charts: d3 and d3-flame-graph, embedded "
         "with their licences below.</p></footer>\n"
      << "<script type=\"application/json\" id=\"fathom-data\">"
      << escape_for_raw_text_element(data.dump()) << "</script>\n"
      << "<script>/*\n" << escape_for_raw_text_element(assets.d3_license) << "\n*/\n"
      << escape_for_raw_text_element(assets.d3_js) << "\n</script>\n"
      << "<script>/*\n" << escape_for_raw_text_element(assets.flame_graph_license) << "\n*/\n"
      << escape_for_raw_text_element(assets.flame_graph_js) << "\n</script>\n"
      << "<script>\n" << escape_for_raw_text_element(std::string(html_page_script()))
      << "\n</script>\n</body>\n</html>\n";
}

}  // namespace fathom::report
