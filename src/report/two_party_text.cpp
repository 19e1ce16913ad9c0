#include "report/two_party_text.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "report/summary.h"

namespace fathom::report {
namespace {

constexpr const char* kClient = "client";
constexpr const char* kServer = "server";

std::string percent(double fraction) {
  const double p = fraction * 100.0;
  return p > 0 && p < 0.1 ? "<0.1%" : fmt::format("{:.1f}%", p);
}

// "name 302, other 906" for the BYTES records `names` that the operation has.
std::string bytes_list(const model::OperationResult& op, const std::vector<std::string>& names,
                       const std::vector<std::string>& labels) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    const auto it = op.object_bytes.find(names[i]);
    if (it == op.object_bytes.end()) continue;
    out += fmt::format("{}{} {}", out.empty() ? "" : ", ", labels[i], with_thousands(it->second));
  }
  return out;
}

// The flights in order ("flight1_client" ...): "client 227, server 906, client 75".
std::string flights(const model::OperationResult& op) {
  std::string out;
  for (int n = 1;; ++n) {
    bool found = false;
    for (const char* side : {kClient, kServer}) {
      const auto it = op.object_bytes.find(fmt::format("flight{}_{}", n, side));
      if (it == op.object_bytes.end()) continue;
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", side, with_thousands(it->second));
      found = true;
    }
    if (!found) return out;
  }
}

}  // namespace

std::vector<std::string> two_party_lines(const model::RunResult& run) {
  std::vector<std::string> lines;
  for (const auto& image : run.images) {
    for (const auto& op : image.operations) {
      const auto& share = op.primitive_share;
      if (!op.has_timing() || op.kat != model::KatStatus::kPassed || !share.count(kClient) ||
          !share.count(kServer))
        continue;
      if (lines.empty())
        lines.push_back(
            "two parties in one image (client and server; shares of the cycles from the "
            "simulator's call path):");
      const double median = op.cycles->median;
      const uint64_t clock = image.provenance.clock_hz;
      lines.push_back(fmt::format(
          "  {} in {} on {}: {} cycles{}", op.operation, image.configuration, image.board,
          rounded_with_thousands(median),
          clock ? fmt::format(" ({:.3f} ms)", median * 1e3 / static_cast<double>(clock)) : ""));
      const double client = share.at(kClient), server = share.at(kServer);
      lines.push_back(fmt::format("    client {} cycles ({}), server {} ({})",
                                  rounded_with_thousands(median * client), percent(client),
                                  rounded_with_thousands(median * server), percent(server)));
      std::vector<std::pair<std::string, double>> under;
      for (const auto& [group, fraction] : share)
        if (group != kClient && group != kServer && fraction >= 0.001)
          under.emplace_back(group, fraction);
      std::sort(under.begin(), under.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
      });
      if (!under.empty()) {
        std::string text;
        for (const auto& [group, fraction] : under)
          text += fmt::format("{}{} {}", text.empty() ? "" : ", ", group, percent(fraction));
        lines.push_back("    under: " + text + " (groups nest: a cycle may count for several)");
      }
      std::string bytes = bytes_list(op, {"client_to_server", "server_to_client"},
                                     {"client to server", "server to client"});
      if (const std::string f = flights(op); !f.empty())
        bytes += (bytes.empty() ? "flights: " : "; flights: ") + f;
      if (!bytes.empty()) lines.push_back("    bytes: " + bytes);
      std::string memory;
      const std::string stack = bytes_list(op, {"client_peak_stack", "server_peak_stack"},
                                           {"client", "server"});
      const std::string heap = bytes_list(op, {"client_peak_heap", "server_peak_heap"},
                                          {"client", "server"});
      if (!stack.empty()) memory += "peak stack: " + stack + " B";
      if (!heap.empty()) memory += (memory.empty() ? "" : "; ") + ("peak heap: " + heap + " B");
      if (!memory.empty()) lines.push_back("    " + memory);
    }
  }
  return lines;
}

}  // namespace fathom::report
