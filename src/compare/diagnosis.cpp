#include "compare/diagnosis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace fathom::compare {
namespace {

struct FunctionCost {
  int64_t exclusive = 0, inclusive = 0;
  uint64_t calls = 0;
};

// Per function name: exclusive cycles, inclusive cycles (each node whose function is not
// already on its path: recursion counted once) and calls.
std::map<std::string, FunctionCost> by_function(const profile::ProfileSet& set,
                                                const profile::Profile& p) {
  std::map<std::string, FunctionCost> out;
  for (const auto& n : p.nodes) {
    const std::string& name = n.frame < set.frames.size() ? set.frames[n.frame].name : "???";
    FunctionCost& c = out[name];
    c.exclusive += static_cast<int64_t>(n.exclusive_cycles);
    c.calls += n.calls;
    bool recursive = false;
    for (int32_t a = n.parent; a >= 0 && static_cast<size_t>(a) < p.nodes.size();
         a = p.nodes[static_cast<size_t>(a)].parent)
      if (p.nodes[static_cast<size_t>(a)].frame == n.frame) recursive = true;
    if (!recursive) c.inclusive += static_cast<int64_t>(n.inclusive_cycles);
  }
  return out;
}

const profile::Profile* find(const profile::ProfileSet& set, const std::string& name) {
  for (const auto& p : set.profiles)
    if (p.name == name) return &p;
  return nullptr;
}

bool changed(uint64_t a, uint64_t b, double threshold_percent) {
  if (a == 0) return b != 0;
  return std::fabs(static_cast<double>(b) - static_cast<double>(a)) * 100.0 /
             static_cast<double>(a) >
         threshold_percent;
}

}  // namespace

std::vector<OperationDiagnosis> diagnose(const profile::ProfileSet& a, const profile::ProfileSet& b,
                                         const DiagnosisOptions& options) {
  std::vector<OperationDiagnosis> out;
  std::map<std::string, std::map<std::string, FunctionCost>> costs_a, costs_b;
  for (const auto& pa : a.profiles) {
    const profile::Profile* pb = find(b, pa.name);
    if (!pb || pa.name == "whole run") continue;
    OperationDiagnosis d;
    d.operation = pa.name;
    d.cycles_a = pa.total_cycles;
    d.cycles_b = pb->total_cycles;
    d.changed = changed(d.cycles_a, d.cycles_b, options.threshold_percent);
    costs_a[pa.name] = by_function(a, pa);
    costs_b[pa.name] = by_function(b, *pb);
    out.push_back(std::move(d));
  }
  for (auto& d : out) {
    if (!d.changed) continue;
    const auto& ca = costs_a[d.operation];
    const auto& cb = costs_b[d.operation];
    std::set<std::string> names;
    for (const auto& [n, c] : ca) names.insert(n);
    for (const auto& [n, c] : cb) names.insert(n);
    const double total = static_cast<double>(d.cycles_b) - static_cast<double>(d.cycles_a);
    std::vector<FunctionDelta> all;
    for (const auto& n : names) {
      FunctionDelta f;
      f.function = n;
      if (auto it = ca.find(n); it != ca.end())
        f.exclusive_a = it->second.exclusive, f.inclusive_a = it->second.inclusive,
        f.calls_a = it->second.calls;
      if (auto it = cb.find(n); it != cb.end())
        f.exclusive_b = it->second.exclusive, f.inclusive_b = it->second.inclusive,
        f.calls_b = it->second.calls;
      f.share = total != 0 ? static_cast<double>(f.exclusive_b - f.exclusive_a) / total : 0;
      all.push_back(f);
    }
    // Rank by share of the change (functions that moved with it first).
    std::sort(all.begin(), all.end(), [](const FunctionDelta& x, const FunctionDelta& y) {
      return x.share != y.share ? x.share > y.share : x.function < y.function;
    });
    double covered = 0;
    for (const auto& f : all) {
      if (covered >= options.coverage || d.functions.size() >= options.max_functions) break;
      if (f.share <= 0) break;
      d.functions.push_back(f);
      covered += f.share;
    }
    d.covered = covered;
    for (const auto& f : all) {
      const double inclusive_share =
          total != 0 ? static_cast<double>(f.inclusive_b - f.inclusive_a) / total : 0;
      if (inclusive_share >= 0.25) d.grew_inclusive.push_back(f);
      if (f.inclusive_b == 0 && f.inclusive_a > 0) d.vanished.push_back(f);
    }
    auto by_inclusive_delta = [](const FunctionDelta& x, const FunctionDelta& y) {
      return x.inclusive_b - x.inclusive_a > y.inclusive_b - y.inclusive_a;
    };
    std::sort(d.grew_inclusive.begin(), d.grew_inclusive.end(), by_inclusive_delta);
    std::sort(d.vanished.begin(), d.vanished.end(),
              [](const FunctionDelta& x, const FunctionDelta& y) { return x.inclusive_a > y.inclusive_a; });
    if (d.vanished.size() > 5) d.vanished.resize(5);
    // Controls: unchanged operations that run one of these functions.
    for (const auto& other : out) {
      if (other.changed) continue;
      OperationDiagnosis::Control c;
      c.operation = other.operation;
      c.cycles_a = other.cycles_a;
      c.cycles_b = other.cycles_b;
      const auto& oa = costs_a[other.operation];
      for (const auto& f : d.functions)
        if (auto it = oa.find(f.function); it != oa.end() && it->second.exclusive > 0)
          c.shared_functions.push_back(f.function);
      if (!c.shared_functions.empty()) d.controls.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<OperationGroups> diagnose_groups(const profile::ProfileSet& a,
                                             const profile::ProfileSet& b,
                                             const profile::PrimitiveGroups& groups,
                                             double threshold_percent) {
  auto names = [](const profile::ProfileSet& set) {
    std::vector<std::string> out;
    out.reserve(set.frames.size());
    for (const auto& f : set.frames) out.push_back(f.name);
    return out;
  };
  const std::vector<std::string> names_a = names(a), names_b = names(b);
  std::vector<OperationGroups> out;
  for (const auto& pa : a.profiles) {
    const auto pb = std::find_if(b.profiles.begin(), b.profiles.end(),
                                 [&](const profile::Profile& p) { return p.name == pa.name; });
    if (pb == b.profiles.end() || pa.execution_cycles.empty() || pb->execution_cycles.empty())
      continue;  // the whole run has no executions: only operations are compared
    const double na = static_cast<double>(pa.execution_cycles.size());
    const double nb = static_cast<double>(pb->execution_cycles.size());
    const auto cycles_a = profile::primitive_cycles(pa, names_a, groups);
    const auto cycles_b = profile::primitive_cycles(*pb, names_b, groups);
    const auto calls_a = profile::primitive_calls(pa, names_a, groups);
    const auto calls_b = profile::primitive_calls(*pb, names_b, groups);
    OperationGroups op{pa.name, {}};
    for (const auto& [group, patterns] : groups) {
      GroupDelta d;
      d.group = group;
      d.cycles_a = static_cast<uint64_t>(std::llround(static_cast<double>(cycles_a.at(group)) / na));
      d.cycles_b = static_cast<uint64_t>(std::llround(static_cast<double>(cycles_b.at(group)) / nb));
      d.calls_a = static_cast<double>(calls_a.at(group)) / na;
      d.calls_b = static_cast<double>(calls_b.at(group)) / nb;
      if (d.cycles_a == 0 && d.cycles_b == 0 && d.calls_a == 0 && d.calls_b == 0) continue;
      d.changed = changed(d.cycles_a, d.cycles_b, threshold_percent);
      op.groups.push_back(std::move(d));
    }
    out.push_back(std::move(op));
  }
  return out;
}

}  // namespace fathom::compare
