#pragma once
// Aligned text columns for the terminal, shared by every table fathom prints (the run table,
// diagnose, compare, profile): a header line, a rule, the rows, two spaces between columns and
// no trailing blanks. Given a width (the terminal's, util/terminal.h), a table fits it: columns
// of names give up width, shortened in the middle with '…' down to a minimum, numbers never,
// and a last column of free text (notes, function names) may run past it.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace fathom::report {

// How a column may give way when the table is wider than the terminal.
enum class ColumnFit {
  kFixed,     // numbers and verdicts: never shortened
  kShrink,    // names: shortened in the middle with '…' down to a minimum width
  kOverflow,  // the last column (notes, function names): never shortened, not counted
};

struct TextColumn {
  std::string header;
  bool right = false;  // right-aligned (numbers)
  ColumnFit fit = ColumnFit::kFixed;
};

class TextTable {
 public:
  explicit TextTable(std::vector<TextColumn> columns) : columns_(std::move(columns)) {}
  // A row with one cell per column (missing cells are empty, extra ones dropped).
  void add_row(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  // Header, rule and rows, each line starting with `indent`, fitted to `width` (0: no limit).
  void write(std::ostream& out, size_t width = 0, const std::string& indent = "") const;

 private:
  std::vector<TextColumn> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Terminal columns taken by UTF-8 `text`: one per code point (fathom's tables only use
// single-width characters such as 'µ', '×' and '…').
size_t display_width(const std::string& text);

// `text` shortened to `width` terminal columns by replacing its middle with '…' (as is if it
// fits; the head keeps the extra column of an odd split).
std::string shorten_middle(const std::string& text, size_t width);

// The column widths of a table whose widest cells are `natural`, fitted to `width` with the
// columns' `fit` and a two-space gap between columns: kShrink columns give up columns, widest
// first, down to max(kMinShrunkWidth, their `floor`: the header's width, or where two names
// would look alike); kOverflow columns do not count. May stay wider than `width` when nothing
// more can give: names stay told apart before the table fits.
inline constexpr size_t kMinShrunkWidth = 10;
std::vector<size_t> fit_widths(std::vector<size_t> natural, const std::vector<size_t>& floor,
                               const std::vector<ColumnFit>& fit, size_t width);

// `line` broken at spaces into lines of at most `width` columns (a longer word stays whole),
// its own spacing kept (aligned figures stay aligned), the continuation lines indented by
// `indent` spaces; `width` 0: the line as is.
std::vector<std::string> wrap_words(const std::string& line, size_t width, size_t indent);

}  // namespace fathom::report
