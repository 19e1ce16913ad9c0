#include "protocol/stream_watch.h"

#include "protocol/record.h"

namespace fathom::protocol {

void StreamWatch::feed(std::string_view bytes) {
  if (over()) return;
  bytes_.append(bytes);
  for (;;) {
    const size_t newline = bytes_.find('\n', scanned_);
    if (newline == std::string::npos) return;
    const size_t line_start = scanned_;
    std::string_view line = std::string_view(bytes_).substr(line_start, newline - line_start);
    scanned_ = newline + 1;
    ++lines_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto parsed = parse_line(line, lines_);
    // Free text and damaged records do not end anything: decode_stream reports the damage.
    if (!parsed || !*parsed) continue;
    ++records_;
    const Record& record = **parsed;
    if (record.type == "HELLO" && ++hellos_ > 1) {
      reset_line_ = lines_;
      end_offset_ = line_start;
      return;
    }
    if (record.type == "END") {
      ended_ = true;
      end_offset_ = scanned_;
      return;
    }
  }
}

}  // namespace fathom::protocol
