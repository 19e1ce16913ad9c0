#include "target/qemu_probe_file.h"

#include <fmt/core.h>

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>

namespace fathom::target {
namespace {

std::optional<uint64_t> parse_u64(std::string_view text) {
  uint64_t value = 0;
  if (text.empty()) return std::nullopt;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "<word> <n1> ... <nk>" → the k numbers if the line is exactly that.
std::optional<std::vector<uint64_t>> numbers(std::string_view line, std::string_view word,
                                             size_t k) {
  if (!line.starts_with(word) || line.size() <= word.size() || line[word.size()] != ' ')
    return std::nullopt;
  std::string_view rest = line.substr(word.size() + 1);
  std::vector<uint64_t> out;
  for (size_t i = 0; i < k; ++i) {
    const size_t space = rest.find(' ');
    if ((space == std::string_view::npos) != (i + 1 == k)) return std::nullopt;
    auto v = parse_u64(rest.substr(0, space));
    if (!v) return std::nullopt;
    out.push_back(*v);
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return out;
}

}  // namespace

util::Result<QemuProbes> parse_qemu_probes(std::string_view text) {
  QemuProbes out;
  bool header = false, total = false;
  int version = 0;
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
      if (line == "fathom-qemu-probes 1") {
        version = 1;
      } else if (line == "fathom-qemu-probes 2") {
        version = 2;
      } else {
        return bad("not a fathom-qemu-probes 1 or 2 header");
      }
      header = true;
      continue;
    }
    if (total) return bad("line after the total");
    if (line.starts_with("error ")) return bad("the plugin reported an error");
    const size_t fields = version == 2 ? 3 : 2;
    if (version == 2 && line.starts_with("stat ")) {
      const std::string_view rest = line.substr(5);
      const size_t space = rest.find(' ');
      if (space == 0 || space == std::string_view::npos || space + 1 == rest.size())
        return bad("expected 'stat <name> <value>'");
      out.stats.emplace_back(std::string(rest.substr(0, space)), std::string(rest.substr(space + 1)));
    } else if (version == 2 && line.starts_with("share\t")) {
      std::vector<std::string> f;
      for (size_t at = 6;;) {
        const size_t tab = line.find('\t', at);
        f.emplace_back(line.substr(at, tab == std::string_view::npos ? tab : tab - at));
        if (tab == std::string_view::npos) break;
        at = tab + 1;
      }
      auto number = [](const std::string& text) -> std::optional<double> {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !(v >= 0) || v > 1e12) return std::nullopt;
        return v;
      };
      const auto share = f.size() == 4 ? number(f[2]) : std::nullopt;
      const auto calls = f.size() == 4 ? number(f[3]) : std::nullopt;
      if (!share || !calls || *share > 1 || f[0].empty() || f[1].empty())
        return bad("expected 'share<TAB><operation><TAB><group><TAB><share 0..1><TAB><calls>'");
      out.shares[f[0]][f[1]] = {*share, *calls};
    } else if (version == 2 && line.starts_with("watch ")) {
      const std::string_view rest = line.substr(6);
      const size_t space = rest.find(' ');
      auto v = space == std::string_view::npos || space == 0
                   ? std::nullopt
                   : numbers("w " + std::string(rest.substr(space + 1)), "w", 8);
      if (!v || (*v)[1] > 1 || (*v)[0] > UINT32_MAX || (*v)[3] > UINT32_MAX)
        return bad("expected 'watch <operation> <call_address> <returned 0|1> <peak_stack> "
                   "<deepest_pc> <unwritten_bytes> <heap_start> <heap_peak> <allocations>'");
      const auto& n = *v;
      out.executions.push_back({.operation = std::string(rest.substr(0, space)),
                                .call_address = static_cast<uint32_t>(n[0]),
                                .returned = n[1] == 1,
                                .peak_stack_bytes = n[2],
                                .deepest_pc = static_cast<uint32_t>(n[3]),
                                .unwritten_bytes = n[4],
                                .heap_start_bytes = n[5],
                                .heap_peak_bytes = n[6],
                                .allocations = n[7]});
    } else if (auto probe = numbers(line, "probe", fields)) {
      const auto& v = *probe;
      if (!out.probes.empty() && (v[0] < out.probes.back().instructions ||
                                  v[1] < out.probes.back().console_offset))
        return bad("probe counts go backwards");
      if (version == 2 && v[2] > UINT32_MAX) return bad("a CYCCNT value above 32 bits");
      out.probes.push_back({v[0], v[1]});
      if (version == 2) out.probes.back().cyccnt = static_cast<uint32_t>(v[2]);
    } else if (auto t = numbers(line, "total", fields)) {
      const auto& v = *t;
      if (!out.probes.empty() && (v[0] < out.probes.back().instructions ||
                                  v[1] < out.probes.back().console_offset))
        return bad("total below the last probe's counts");
      out.total_instructions = v[0];
      out.console_bytes = v[1];
      if (version == 2) out.total_cycles = v[2];
      total = true;
    } else {
      return bad(version == 2
                     ? "expected 'probe <instructions> <console_bytes> <cyccnt>', 'stat ...' or "
                       "'total ...'"
                     : "expected 'probe <instructions> <console_bytes>' or 'total ...'");
    }
  }
  if (!header) return util::fail("QEMU plugin output is empty");
  if (!total) return util::fail("QEMU plugin output has no total line (QEMU stopped early?)");
  return out;
}

}  // namespace fathom::target
