#pragma once
// One framed record line of the firmware→host protocol (docs/PROTOCOL.md):
//   @F <seq> <TYPE> <field> ... #<crc32>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::protocol {

// Longest record line in bytes, counting its '\n' (an ignored '\r' is not counted).
inline constexpr size_t kMaxRecordLineBytes = 512;

// The prefix that makes a line a record; any other line is free text.
inline constexpr std::string_view kRecordPrefix = "@F ";

struct Record {
  uint64_t seq = 0;                 // sequence number as sent
  std::string type;                 // "HELLO", "SAMPLE", ... (not checked against the known set)
  std::vector<std::string> fields;  // tokens between the type and the CRC, possibly none
  size_t line_number = 0;           // 1-based line in the console stream
};

// Parses one console line, given without its '\n' (a trailing '\r' is ignored).
// Returns std::nullopt for free text (a line not starting with "@F "), a Record for a
// well-formed record whose CRC matches, and an error "line <line_number>: ..." for a line that
// starts with "@F " but is too long, has no valid "#<crc>" trailer, fails its CRC, or whose
// sequence number, type or fields are malformed. The CRC is checked before the structure, so
// a corrupted byte is reported as a CRC mismatch.
util::Result<std::optional<Record>> parse_line(std::string_view line, size_t line_number);

// Parses a canonical unsigned decimal (digits only, no sign, no leading zeros except "0",
// no overflow). std::nullopt otherwise.
std::optional<uint64_t> parse_decimal_u64(std::string_view text);

}  // namespace fathom::protocol
