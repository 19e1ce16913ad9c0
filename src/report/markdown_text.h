#pragma once
// Text inside a Markdown table cell: a '|' would end the cell early and a newline the row, so
// '|' is escaped and line breaks become spaces.
#include <string>

namespace fathom::report {

inline std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

}  // namespace fathom::report
