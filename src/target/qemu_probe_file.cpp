#include "target/qemu_probe_file.h"

#include <fmt/core.h>

#include <charconv>
#include <optional>

namespace fathom::target {
namespace {

std::optional<uint64_t> parse_u64(std::string_view text) {
  uint64_t value = 0;
  if (text.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "<word> <a> <b>" → (a, b) if the line is exactly that.
std::optional<std::pair<uint64_t, uint64_t>> two_numbers(std::string_view line,
                                                         std::string_view word) {
  if (!line.starts_with(word) || line.size() <= word.size() || line[word.size()] != ' ')
    return std::nullopt;
  const std::string_view rest = line.substr(word.size() + 1);
  const size_t space = rest.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  auto a = parse_u64(rest.substr(0, space));
  auto b = parse_u64(rest.substr(space + 1));
  if (!a || !b) return std::nullopt;
  return std::pair{*a, *b};
}

}  // namespace

util::Result<QemuProbes> parse_qemu_probes(std::string_view text) {
  QemuProbes out;
  bool header = false, total = false;
  size_t line_number = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t newline = text.find('\n', pos);
    const std::string_view line =
        text.substr(pos, newline == std::string_view::npos ? std::string_view::npos
                                                           : newline - pos);
    pos = newline == std::string_view::npos ? text.size() : newline + 1;
    ++line_number;
    auto bad = [&](std::string_view what) {
      return util::fail(fmt::format("QEMU plugin output line {}: {} ('{}')", line_number, what,
                                    protocol::escape_log_text(line, 80)));
    };
    if (!header) {
      if (line != "fathom-qemu-probes 1") return bad("not a fathom-qemu-probes 1 header");
      header = true;
      continue;
    }
    if (total) return bad("line after the total");
    if (line.starts_with("error ")) return bad("the plugin reported an error");
    if (auto probe = two_numbers(line, "probe")) {
      if (!out.probes.empty() && (probe->first < out.probes.back().instructions ||
                                  probe->second < out.probes.back().console_offset))
        return bad("probe counts go backwards");
      out.probes.push_back({probe->first, probe->second});
    } else if (auto t = two_numbers(line, "total")) {
      if (!out.probes.empty() && (t->first < out.probes.back().instructions ||
                                  t->second < out.probes.back().console_offset))
        return bad("total below the last probe's counts");
      out.total_instructions = t->first;
      out.console_bytes = t->second;
      total = true;
    } else {
      return bad("expected 'probe <instructions> <console_bytes>' or 'total ...'");
    }
  }
  if (!header) return util::fail("QEMU plugin output is empty");
  if (!total) return util::fail("QEMU plugin output has no total line (QEMU stopped early?)");
  return out;
}

}  // namespace fathom::target
