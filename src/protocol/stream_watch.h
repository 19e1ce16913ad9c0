#pragma once
// Watches a console stream while it arrives (a board's UART) and says when it is over: the END
// record arrived, or the board started again (a second HELLO: it reset mid-run). It parses
// each complete line with protocol::parse_line and nothing more; the numbers come from
// decode_stream over the bytes before `complete_bytes()`.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace fathom::protocol {

class StreamWatch {
 public:
  // Appends `bytes` to the stream seen so far and scans every line they complete. Bytes fed
  // after the stream is over (ended() or reset_at()) are ignored.
  void feed(std::string_view bytes);

  // An intact END record arrived (its line is complete). Whether the stream is consistent is
  // decode_stream's to say.
  bool ended() const { return ended_; }
  // A second intact HELLO arrived: the board restarted. Its line number (1-based).
  std::optional<size_t> reset_line() const { return reset_line_; }
  bool over() const { return ended_ || reset_line_.has_value(); }

  // The stream to decode: everything up to and including END's line, or everything before
  // the second HELLO, or (neither yet) everything fed so far.
  std::string_view stream() const { return std::string_view(bytes_).substr(0, complete_bytes()); }
  size_t complete_bytes() const { return over() ? end_offset_ : bytes_.size(); }

  // Lines completed so far, and whether any intact record arrived (the board is talking).
  size_t lines() const { return lines_; }
  bool any_record() const { return records_ > 0; }

 private:
  std::string bytes_;
  size_t scanned_ = 0;     // bytes_[0, scanned_) are complete lines already looked at
  size_t end_offset_ = 0;  // where the stream ends once over()
  size_t lines_ = 0;
  uint64_t records_ = 0;
  uint64_t hellos_ = 0;
  bool ended_ = false;
  std::optional<size_t> reset_line_;
};

}  // namespace fathom::protocol
