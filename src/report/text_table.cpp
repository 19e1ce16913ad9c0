#include "report/text_table.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

namespace fathom::report {
namespace {

// Byte offsets of the code points of UTF-8 `text`, and its size at the end.
std::vector<size_t> code_point_starts(const std::string& text) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < text.size(); ++i)
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) starts.push_back(i);
  starts.push_back(text.size());
  return starts;
}

void pad(std::ostream& out, const std::string& text, size_t width, bool right) {
  const size_t fill = width - std::min(width, display_width(text));
  if (right)
    out << std::string(fill, ' ') << text;
  else
    out << text << std::string(fill, ' ');
}

void write_line(std::ostream& out, const std::string& indent,
                const std::vector<std::string>& cells, const std::vector<size_t>& widths,
                const std::vector<bool>& right) {
  std::ostringstream line;
  line << indent;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line << "  ";
    pad(line, cells[i], widths[i], right[i]);
  }
  std::string text = line.str();
  text.erase(text.find_last_not_of(' ') + 1);  // no trailing blanks after a short last cell
  out << text << '\n';
}

}  // namespace

size_t display_width(const std::string& text) {
  return static_cast<size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string shorten_middle(const std::string& text, size_t width) {
  const std::vector<size_t> starts = code_point_starts(text);
  const size_t length = starts.size() - 1;
  if (length <= width) return text;
  if (width == 0) return "";
  const size_t keep = width - 1;  // one column for '…'
  const size_t tail = keep / 2, head = keep - tail;
  return text.substr(0, starts[head]) + "…" + text.substr(starts[length - tail]);
}

std::vector<size_t> fit_widths(std::vector<size_t> widths, const std::vector<size_t>& floor,
                               const std::vector<ColumnFit>& fit, size_t width) {
  if (width == 0) return widths;
  auto total = [&] {
    size_t sum = 0, counted = 0;
    for (size_t i = 0; i < widths.size(); ++i)
      if (fit[i] != ColumnFit::kOverflow) {
        sum += widths[i];
        ++counted;
      }
    return sum + (counted > 1 ? 2 * (counted - 1) : 0);
  };
  for (size_t excess = total() > width ? total() - width : 0; excess > 0; --excess) {
    // The widest column that may still give one up.
    size_t best = widths.size();
    for (size_t i = 0; i < widths.size(); ++i)
      if (fit[i] == ColumnFit::kShrink && widths[i] > std::max(kMinShrunkWidth, floor[i]) &&
          (best == widths.size() || widths[i] > widths[best]))
        best = i;
    if (best == widths.size()) break;
    --widths[best];
  }
  return widths;
}

std::vector<std::string> wrap_words(const std::string& line, size_t width, size_t indent) {
  if (width == 0 || display_width(line) <= width) return {line};
  std::vector<std::string> out;
  std::string rest = line;
  const std::string pad(indent, ' ');
  while (display_width(rest) > width) {
    // The last space within the width that follows a word (the line's own indent is no break).
    const std::vector<size_t> starts = code_point_starts(rest);
    const size_t first_word = std::min(rest.find_first_not_of(' '), rest.size());
    // A gap between aligned fields ("  ") in the second half of the width is the better break.
    size_t cut = std::string::npos, gap = std::string::npos;
    for (size_t column = 0; column + 1 < starts.size() && column <= width; ++column)
      if (rest[starts[column]] == ' ' && starts[column] > first_word) {
        cut = starts[column];
        if (column >= width / 2 && rest.compare(cut, 2, "  ") == 0) gap = cut;
      }
    if (gap != std::string::npos) cut = gap;
    if (cut == std::string::npos) cut = rest.find(' ', first_word);  // one long word: whole
    if (cut == std::string::npos) break;
    std::string head = rest.substr(0, cut);
    head.erase(head.find_last_not_of(' ') + 1);
    out.push_back(head);
    const size_t next = rest.find_first_not_of(' ', cut);
    if (next == std::string::npos) {
      rest.clear();
      break;
    }
    rest = pad + rest.substr(next);
  }
  if (!rest.empty()) out.push_back(rest);
  return out;
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::write(std::ostream& out, size_t width, const std::string& indent) const {
  std::vector<size_t> header_widths, widths;
  std::vector<ColumnFit> fit;
  std::vector<bool> right;
  for (const auto& c : columns_) {
    header_widths.push_back(display_width(c.header));
    fit.push_back(c.fit);
    right.push_back(c.right);
  }
  widths = header_widths;
  for (const auto& row : rows_)
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  // A shortened column never makes two different names look alike ("mbedtl…b-nano" for two
  // configurations): it keeps the width at which its distinct cells stay distinct.
  std::vector<size_t> floors = header_widths;
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (fit[i] != ColumnFit::kShrink || width == 0) continue;
    std::set<std::string> cells;
    for (const auto& row : rows_) cells.insert(row[i]);
    auto distinct_at = [&](size_t w) {
      std::set<std::string> shortened;
      for (const auto& c : cells) shortened.insert(shorten_middle(c, w));
      return shortened.size() == cells.size();
    };
    size_t w = std::max(floors[i], kMinShrunkWidth);
    while (w < widths[i] && !distinct_at(w)) ++w;
    floors[i] = w;
  }
  const size_t indent_width = display_width(indent);
  widths = fit_widths(widths, floors, fit,
                      width == 0 ? 0 : width > indent_width ? width - indent_width : 1);
  auto fitted = [&](std::vector<std::string> cells) {
    for (size_t i = 0; i < cells.size(); ++i)
      if (fit[i] == ColumnFit::kShrink) cells[i] = shorten_middle(cells[i], widths[i]);
    return cells;
  };
  std::vector<std::string> headers, rule;
  for (size_t i = 0; i < columns_.size(); ++i) {
    headers.push_back(columns_[i].header);
    // A free-text last column's rule is as long as its header, not its longest cell.
    rule.push_back(std::string(fit[i] == ColumnFit::kOverflow ? header_widths[i] : widths[i], '-'));
  }
  write_line(out, indent, fitted(headers), widths, right);
  write_line(out, indent, rule, widths, right);
  for (const auto& row : rows_) write_line(out, indent, fitted(row), widths, right);
}

}  // namespace fathom::report
