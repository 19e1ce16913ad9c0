#pragma once
// Test helpers: build protocol lines and streams the way the firmware does (docs/PROTOCOL.md).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "util/crc32.h"

namespace fathom::protocol::testing {

// "@F <seq> <TYPE> <fields...> #<crc>" without the newline.
inline std::string record_line(uint64_t seq, const std::string& type,
                               const std::vector<std::string>& fields) {
  std::string covered = fmt::format("@F {} {} ", seq, type);
  for (const auto& f : fields) covered += f + " ";
  return covered + fmt::format("#{:08x}", util::crc32(covered));
}

// Appends records with consecutive sequence numbers; lines can be edited before text().
class StreamBuilder {
 public:
  StreamBuilder& add(const std::string& type, const std::vector<std::string>& fields) {
    lines.push_back(record_line(next_seq++, type, fields));
    return *this;
  }
  StreamBuilder& text(const std::string& free_text) {
    lines.push_back(free_text);
    return *this;
  }
  // END with the number of records so far and `failed_operations`.
  StreamBuilder& end(uint32_t failed_operations = 0) {
    return add("END", {std::to_string(failed_operations), std::to_string(next_seq)});
  }
  // Every line followed by '\n'.
  std::string str() const {
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }

  std::vector<std::string> lines;
  uint64_t next_seq = 0;
};

}  // namespace fathom::protocol::testing
