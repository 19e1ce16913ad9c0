#pragma once
// `fathom report`'s page: one self-contained HTML file (no network, no other file) that shows a
// run's results as tables and charts — the images with their KAT status and provenance, every
// operation (sortable), a bar chart per operation across images (logarithmic where the figures
// span more than 20x, the fastest marked only where the results' "fastest" mark says so, i.e.
// beyond noise), a heat map of ratios to a baseline image, a comparison with a second result,
// flame graphs (and differential ones) from profiles, the diagnosis tables, the history trend of
// a metric over stored runs, `fathom ct`'s verdicts and taint findings, the fairness checks and
// the workflows as
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
// image, or the differential tree of the same operation in two images.
struct FlameGraph {
  enum class Kind {
    kProfile,       // one image's profile
    kDifferential,  // against the baseline configuration's image on the same board
    kComparison,    // against the comparison's A image (RESULT is B)
  };
  std::string configuration;
  std::string board;
  std::string operation;
  Kind kind = Kind::kProfile;
  std::string against;  // differential: the baseline configuration; comparison: A's image
  nlohmann::ordered_json tree;
};

// The functions that explain each operation's change between two profiled images
// (compare/diagnosis_json.h), as `fathom diagnose` prints them.
struct DiagnosisTable {
  std::string kind;  // "baseline" (a configuration against the baseline's) or "comparison"
  std::string image_a;  // "mbedtls @ sim-m33"; for a comparison, A's
  std::string image_b;
  nlohmann::ordered_json operations;
};

// An image of the comparison's B and the image of A it is compared with, as `fathom compare`
// pairs them (compare::compare_runs: same configuration and board, else one image each, ...).
struct ImagePair {
  std::string a_configuration;
  std::string a_board;
  std::string b_configuration;
  std::string b_board;
};

struct HtmlReport {
  const model::RunResult* result = nullptr;   // required
  std::string result_label;                   // how the page names `result` ("b.json", "run 4")
  const model::RunResult* compare = nullptr;  // optional: the A of a comparison (result is B)
  std::string compare_label;                  // how the page names `compare` ("a.json")
  std::vector<ImagePair> compare_pairs;       // with `compare`: which images the rows compare
  std::string baseline_configuration;         // the heat map's baseline; empty: the first image
  std::vector<FlameGraph> flames;
  std::vector<DiagnosisTable> diagnoses;
  // What could not be profiled and why ("A's mbedtls @ sim-m33 (ELF 1a2b…) is not what this
  // tree builds now (3c4d…)"): the page lists these beside the graphs.
  std::vector<std::string> profile_notes;
  nlohmann::ordered_json trend;  // history/trend.h, or null
  // `fathom ct --format json`'s document (docs/CT.md), or null: the constant-time section.
  nlohmann::ordered_json constant_time;
};

void write_html_report(const HtmlReport& report, const HtmlAssets& assets, std::ostream& out);

// `text` safe inside a <script> or <style> element: every "</" becomes "<\/" (in JavaScript and
// JSON strings the same text; in CSS an escape), so no "</script>" or "</style>" ends it early,
// and "<!--" is broken up likewise.
std::string escape_for_raw_text_element(const std::string& text);

}  // namespace fathom::report
