#pragma once
// `fathom report`'s page: one self-contained HTML file (no network, no other file) that shows a
// run's results as tables and charts — the images with their KAT status and provenance, every
// operation (sortable), a bar chart per operation across images (logarithmic where the figures
// span more than 20x, the fastest marked only where the results' "fastest" mark says so, i.e.
// beyond noise), a heat map of ratios to a baseline image, a comparison with a second result,
// flame graphs (and differential ones) from profiles, the fairness checks and the workflows as
// stacked per-step bars with their bytes on the wire.
//
// The page embeds, in order: the style sheets, the data as JSON in
// <script type="application/json" id="fathom-data"> (the results exactly as
// `fathom run --format json` writes them, so a reader can check the page's numbers against
// results.json), d3 and d3-flame-graph (the pinned npm packages' browser builds, with their
// licences) and the page's own script (report/html_page.h). Every embedded text is escaped so
// that it cannot end its <script> or <style> element early.
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/run_result.h"

namespace fathom::report {

// The third-party code the page embeds (read from the pinned packages by the caller).
struct HtmlAssets {
  std::string d3_js;             // d3's dist/d3.min.js
  std::string d3_license;
  std::string flame_graph_js;    // d3-flame-graph's dist/d3-flamegraph.umd.min.js
  std::string flame_graph_css;   // d3-flame-graph's dist/d3-flamegraph.css
  std::string flame_graph_license;
};

// One flame graph: a profile's tree (profile/export/flame_tree.h) of one operation of one
// image, or the differential tree of the same operation in two configurations.
struct FlameGraph {
  std::string configuration;
  std::string board;
  std::string operation;
  bool differential = false;
  std::string baseline_configuration;  // differential only: A
  nlohmann::ordered_json tree;
};

struct HtmlReport {
  const model::RunResult* result = nullptr;   // required
  const model::RunResult* compare = nullptr;  // optional: the A of a comparison (result is B)
  std::string compare_label;                  // how the page names `compare` ("a.json")
  std::string baseline_configuration;         // the heat map's baseline; empty: the first image
  std::vector<FlameGraph> flames;
};

void write_html_report(const HtmlReport& report, const HtmlAssets& assets, std::ostream& out);

// `text` safe inside a <script> or <style> element: every "</" becomes "<\/" (in JavaScript and
// JSON strings the same text; in CSS an escape), so no "</script>" or "</style>" ends it early,
// and "<!--" is broken up likewise.
std::string escape_for_raw_text_element(const std::string& text);

}  // namespace fathom::report
