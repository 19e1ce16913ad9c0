#include "protocol/record.h"

#include <fmt/format.h>

#include "util/crc32.h"

namespace fathom::protocol {
namespace {

// " #" + 8 lower-case hex digits at the very end of the line.
constexpr size_t kTrailerBytes = 10;

bool is_lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_field_char(char c) { return c >= '!' && c <= '~' && c != '#'; }

bool is_type_token(std::string_view t) {
  if (t.empty() || t.front() < 'A' || t.front() > 'Z') return false;
  for (char c : t)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// Splits `body` (no leading or trailing space) on single spaces; an empty token means two
// adjacent spaces or a leading/trailing one.
std::vector<std::string_view> split_tokens(std::string_view body) {
  std::vector<std::string_view> tokens;
  size_t start = 0;
  while (true) {
    const size_t space = body.find(' ', start);
    if (space == std::string_view::npos) {
      tokens.push_back(body.substr(start));
      return tokens;
    }
    tokens.push_back(body.substr(start, space - start));
    start = space + 1;
  }
}

}  // namespace

std::optional<uint64_t> parse_decimal_u64(std::string_view text) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  if (text.size() > 1 && text.front() == '0') return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<uint64_t>(c - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  return value;
}

util::Result<std::optional<Record>> parse_line(std::string_view line, size_t line_number) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!line.starts_with(kRecordPrefix)) return std::optional<Record>{};

  const auto bad = [line_number](std::string_view what) {
    return util::fail(fmt::format("line {}: {}", line_number, what));
  };
  if (line.size() + 1 > kMaxRecordLineBytes)
    return bad(fmt::format("record longer than {} bytes ({} bytes with its newline)",
                           kMaxRecordLineBytes, line.size() + 1));
  if (line.size() < kRecordPrefix.size() + kTrailerBytes)
    return bad("record too short to hold a sequence number, a type and a CRC");

  const std::string_view trailer = line.substr(line.size() - kTrailerBytes);
  bool trailer_ok = trailer[0] == ' ' && trailer[1] == '#';
  for (size_t i = 2; i < kTrailerBytes && trailer_ok; ++i) trailer_ok = is_lower_hex(trailer[i]);
  if (!trailer_ok)
    return bad("record does not end with ' #' and 8 lower-case hex digits (the CRC)");

  // Covered bytes: from '@' up to and including the space before '#'.
  const std::string_view covered = line.substr(0, line.size() - kTrailerBytes + 1);
  uint32_t expected = 0;
  for (size_t i = 2; i < kTrailerBytes; ++i) {
    const char c = trailer[i];
    expected = expected << 4 | static_cast<uint32_t>(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  const uint32_t computed = util::crc32(covered);
  if (expected != computed)
    return bad(
        fmt::format("record CRC mismatch (expected {:08x}, computed {:08x})", expected, computed));

  // The CRC matched, so the firmware really sent this; what is left are format bugs.
  const std::string_view body =
      line.substr(kRecordPrefix.size(), line.size() - kRecordPrefix.size() - kTrailerBytes);
  const std::vector<std::string_view> tokens = split_tokens(body);
  if (tokens.size() < 2) return bad("record has no type after its sequence number");
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].empty())
      return bad(
          fmt::format("record has an empty token {} (tokens are separated by one space)", i + 1));
    for (char c : tokens[i])
      if (!is_field_char(c))
        return bad(fmt::format("record token {} contains byte 0x{:02x}, which is not allowed",
                               i + 1, static_cast<uint8_t>(c)));
  }
  const std::optional<uint64_t> seq = parse_decimal_u64(tokens[0]);
  if (!seq)
    return bad(fmt::format("record sequence number '{}' is not an unsigned decimal", tokens[0]));
  if (!is_type_token(tokens[1]))
    return bad(fmt::format("record type '{}' is not upper case", tokens[1]));

  Record record;
  record.seq = *seq;
  record.type = std::string(tokens[1]);
  record.line_number = line_number;
  for (size_t i = 2; i < tokens.size(); ++i) record.fields.emplace_back(tokens[i]);
  return std::optional<Record>{std::move(record)};
}

}  // namespace fathom::protocol
