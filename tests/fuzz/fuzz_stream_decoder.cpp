// Fuzz target: the firmware console stream (docs/PROTOCOL.md), untrusted bytes from a UART or
// an emulator. Decodes the bytes without probes and with a probe list derived from them, and
// parses every line as a record; checks what the decoder promises about its output.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "protocol/record.h"
#include "protocol/stream_decoder.h"

namespace {

using fathom::protocol::CycleProbe;
using fathom::protocol::DecodedStream;

bool printable(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
  return true;
}

void check(const DecodedStream& decoded, bool with_probes) {
  for (const auto& line : decoded.log_lines) FATHOM_FUZZ_CHECK(printable(line));
  for (const auto& error : decoded.errors)
    FATHOM_FUZZ_CHECK(!error.empty() && error.find('\n') == std::string::npos);
  for (const auto& op : decoded.operations) {
    FATHOM_FUZZ_CHECK(!op.operation.empty());
    // An operation has an instruction count for every cycle sample, or none at all.
    FATHOM_FUZZ_CHECK(op.instruction_samples.empty() ||
                      op.instruction_samples.size() == op.cycle_samples.size());
    if (!with_probes) FATHOM_FUZZ_CHECK(op.instruction_samples.empty());
    FATHOM_FUZZ_CHECK(op.cycles.has_value() == !op.cycle_samples.empty());
    if (op.cycles) FATHOM_FUZZ_CHECK(op.cycles->count == op.cycle_samples.size());
  }
  if (decoded.hello.protocol == 0) FATHOM_FUZZ_CHECK(decoded.hello.board.empty());
}

// The probes a simulator would have served for the CAL and SAMPLE values of the stream's
// well-formed records, in record order, with instruction counts drawn from the input bytes (so
// they sometimes decrease); some values are left out and some repeated, so lookups miss, match
// forward and fall back to earlier reads.
std::vector<CycleProbe> probes_from(std::string_view bytes) {
  std::vector<CycleProbe> probes;
  uint64_t instructions = 0;
  size_t mix = 0;
  auto next_byte = [&]() -> uint8_t {
    if (bytes.empty()) return 0;
    return static_cast<uint8_t>(bytes[mix++ % bytes.size()]);
  };
  size_t pos = 0;
  size_t line_number = 0;
  while (pos < bytes.size()) {
    const size_t newline = bytes.find('\n', pos);
    const std::string_view line =
        bytes.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    pos = newline == std::string_view::npos ? bytes.size() : newline + 1;
    auto record = fathom::protocol::parse_line(line, ++line_number);
    if (!record || !*record) continue;
    const auto& r = **record;
    size_t first = 0;
    if (r.type == "CAL" && r.fields.size() == 2) first = 0;
    else if (r.type == "SAMPLE" && r.fields.size() == 4) first = 2;
    else continue;
    for (size_t i = first; i < r.fields.size(); ++i) {
      const auto value = fathom::protocol::parse_decimal_u64(r.fields[i]);
      if (!value) continue;
      const uint8_t choice = next_byte();
      if (choice % 16 == 0) continue;  // a read the decoder will not find
      instructions = choice % 16 == 1 ? instructions - (choice >> 4) : instructions + choice;
      probes.push_back({static_cast<uint32_t>(*value), instructions});
      if (choice % 16 == 2) probes.push_back({static_cast<uint32_t>(*value), instructions + 1});
    }
  }
  return probes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  check(fathom::protocol::decode_stream(bytes), false);

  const std::vector<CycleProbe> probes = probes_from(bytes);
  check(fathom::protocol::decode_stream(bytes, std::span<const CycleProbe>(probes)), true);

  // Every line on its own, as a record parser sees it.
  size_t pos = 0;
  size_t line_number = 0;
  while (pos < bytes.size()) {
    const size_t newline = bytes.find('\n', pos);
    const std::string_view line =
        bytes.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    pos = newline == std::string_view::npos ? bytes.size() : newline + 1;
    auto record = fathom::protocol::parse_line(line, ++line_number);
    if (!record) {
      FATHOM_FUZZ_CHECK(record.error().message.starts_with("line "));
      continue;
    }
    if (!*record) continue;
    FATHOM_FUZZ_CHECK(line.starts_with(fathom::protocol::kRecordPrefix));
    FATHOM_FUZZ_CHECK(line.size() < fathom::protocol::kMaxRecordLineBytes + 1);
    FATHOM_FUZZ_CHECK(!(*record)->type.empty());
    for (const auto& field : (*record)->fields)
      FATHOM_FUZZ_CHECK(!field.empty() && printable(field) &&
                        field.find_first_of(" #") == std::string::npos);
  }
  fathom::protocol::escape_log_text(bytes, size / 2);
  return 0;
}
