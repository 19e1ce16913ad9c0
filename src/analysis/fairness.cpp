#include "analysis/fairness.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

namespace fathom::analysis {
namespace {

// The flags that decide the generated code, for the group label: the -O level and -mcpu.
std::string flags_label(const std::vector<std::string>& cflags) {
  std::vector<std::string> shown;
  for (const auto& f : cflags)
    if (f.rfind("-O", 0) == 0 || f.rfind("-mcpu=", 0) == 0) shown.push_back(f);
  return fmt::format("{}", fmt::join(shown, " "));
}

const model::OperationResult* find_op(const model::ImageResult& image, const std::string& name) {
  for (const auto& op : image.operations)
    if (op.operation == name) return &op;
  return nullptr;
}

}  // namespace

std::vector<model::FairnessCheck> check_fairness(const model::RunResult& run,
                                                 const model::Suite& suite,
                                                 const model::FairnessSpec& spec) {
  auto group_of = [&](const model::ImageResult& image) {
    for (const auto& c : suite.configurations)
      if (c.name == image.configuration) return c.fairness_group;
    return std::string();
  };
  // Group key -> images in run order; the key holds everything that decides the control code.
  std::vector<std::pair<std::string, std::vector<const model::ImageResult*>>> groups;
  for (const auto& image : run.images) {
    const auto& p = image.provenance;
    const std::string key = fmt::format("{}\n{}\n{}\n{}\n{}\n{}", image.board, p.library,
                                        p.library_version, p.libc, fmt::join(p.cflags, " "),
                                        group_of(image));
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == key; });
    if (it == groups.end()) {
      groups.emplace_back(key, std::vector<const model::ImageResult*>{});
      it = groups.end() - 1;
    }
    it->second.push_back(&image);
  }

  std::vector<model::FairnessCheck> checks;
  for (const auto& [key, images] : groups) {
    if (images.size() < 2) continue;
    const auto& p = images.front()->provenance;
    std::string label = fmt::format("{}, {}, {} on {}", p.library, p.libc.empty() ? "?" : p.libc,
                                    flags_label(p.cflags), images.front()->board);
    if (const std::string g = group_of(*images.front()); !g.empty())
      label += fmt::format(" (group {})", g);
    for (const auto& name : spec.operations) {
      model::FairnessCheck check;
      check.group = label;
      check.operation = name;
      check.tolerance_percent = spec.tolerance_percent;
      for (const auto* image : images) {
        const auto* op = find_op(*image, name);
        if (!op || !op->has_timing()) continue;
        check.configurations.push_back(image->configuration);
        check.median_cycles.push_back(op->cycles->median);
      }
      if (check.configurations.size() < 2) continue;
      const auto [lo, hi] =
          std::minmax_element(check.median_cycles.begin(), check.median_cycles.end());
      check.spread_percent = *lo > 0 ? (*hi - *lo) / *lo * 100.0 : 0.0;
      check.passed = *lo > 0 && check.spread_percent <= spec.tolerance_percent;
      checks.push_back(std::move(check));
    }
  }
  return checks;
}

}  // namespace fathom::analysis
