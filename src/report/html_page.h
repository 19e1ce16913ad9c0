#pragma once
// The HTML report's own page code (report/html_report.h): the script that renders the embedded
// data with d3 and d3-flame-graph, and its style sheet. Ours; the libraries come from the
// pinned npm packages (sources.lock) and are embedded beside it.
#include <string_view>

namespace fathom::report {

std::string_view html_page_script();
std::string_view html_page_style();

}  // namespace fathom::report
