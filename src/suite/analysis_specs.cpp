#include "suite/analysis_specs.h"

#include <fmt/core.h>

#include <algorithm>

#include "suite/toml_reader.h"

namespace fathom::suite {
namespace {

std::string check_name(std::string_view name) {
  if (is_valid_name(name)) return "";
  return fmt::format("'{}' is not a valid name (use lower-case letters, digits, '_', '.' and "
                     "'-', starting with a letter or digit)",
                     name);
}

// "operation.object": an operation name, a dot, and an object name in [a-z0-9_].
std::string check_object_reference(std::string_view ref) {
  const auto dot = ref.rfind('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == ref.size() ||
      !is_valid_name(ref.substr(0, dot)) ||
      !std::all_of(ref.begin() + static_cast<long>(dot) + 1, ref.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
      }))
    return fmt::format("'{}' is not \"operation.object\" (e.g. \"mlkem512_keygen.public_key\")",
                       ref);
  return "";
}

void add_unique(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

}  // namespace

util::Result<model::FairnessSpec> parse_fairness(const toml::table& table,
                                                 std::string_view source_name) {
  TableReader r(table, source_name, "[fairness]");
  model::FairnessSpec spec;
  auto ops = r.string_array("operations", check_name, true);
  if (!ops) return tl::unexpected(ops.error());
  if (!*ops || (*ops)->empty())
    return tl::unexpected(r.error_at_key(
        "operations", "[fairness] needs 'operations', the control operations that run identical "
                      "code in every image, e.g. [\"hkdf_sha256\"]"));
  spec.operations = std::move(**ops);
  auto tolerance = r.number("tolerance_percent", 0.001, 100);
  if (!tolerance) return tl::unexpected(tolerance.error());
  if (*tolerance) spec.tolerance_percent = **tolerance;
  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  return spec;
}

util::Result<std::vector<model::Workflow>> parse_workflows(const toml::array& array,
                                                           std::string_view source_name) {
  std::vector<model::Workflow> workflows;
  size_t index = 0;
  for (const toml::node& node : array) {
    ++index;
    TableReader r(*node.as_table(), source_name, fmt::format("[[workflow]] #{}", index));
    model::Workflow w;
    auto name = r.required_string("name");
    if (!name) return tl::unexpected(name.error());
    if (auto p = check_name(*name); !p.empty()) return tl::unexpected(r.error_at_key("name", p));
    w.name = *name;
    for (const auto& earlier : workflows)
      if (earlier.name == w.name)
        return tl::unexpected(r.error_at_key("name", fmt::format("workflow '{}' is defined twice",
                                                                 w.name)));
    auto description = r.string("description");
    if (!description) return tl::unexpected(description.error());
    w.description = description->value_or("");
    auto variants = r.table_array("variant");
    if (!variants) return tl::unexpected(variants.error());
    if (!*variants)
      return tl::unexpected(r.error_at(
          nullptr, fmt::format("workflow '{}' needs at least one [[workflow.variant]]", w.name)));
    size_t vindex = 0;
    for (const toml::node& vnode : **variants) {
      ++vindex;
      TableReader v(*vnode.as_table(), source_name,
                    fmt::format("[[workflow.variant]] #{} of '{}'", vindex, w.name));
      model::WorkflowVariant variant;
      auto vname = v.required_string("name");
      if (!vname) return tl::unexpected(vname.error());
      if (auto p = check_name(*vname); !p.empty())
        return tl::unexpected(v.error_at_key("name", p));
      variant.name = *vname;
      for (const auto& earlier : w.variants)
        if (earlier.name == variant.name)
          return tl::unexpected(v.error_at_key(
              "name", fmt::format("variant '{}' is defined twice in workflow '{}'", variant.name,
                                  w.name)));
      auto steps = v.table_array("steps");
      if (!steps) return tl::unexpected(steps.error());
      if (!*steps || (*steps)->empty())
        return tl::unexpected(v.error_at_key(
            "steps", "a variant needs 'steps' = [ { name = \"...\", operations = [...] }, ... ]"));
      size_t sindex = 0;
      for (const toml::node& snode : **steps) {
        ++sindex;
        TableReader st(*snode.as_table(), source_name,
                       fmt::format("step #{} of variant '{}'", sindex, variant.name));
        model::WorkflowStep step;
        auto sname = st.required_string("name");
        if (!sname) return tl::unexpected(sname.error());
        if (sname->empty()) return tl::unexpected(st.error_at_key("name", "a step needs a name"));
        step.name = *sname;
        auto ops = st.string_array("operations", check_name, false);
        if (!ops) return tl::unexpected(ops.error());
        if (!*ops || (*ops)->empty())
          return tl::unexpected(st.error_at_key("operations",
                                                "a step needs at least one operation"));
        step.operations = std::move(**ops);
        if (auto ok = st.finish(); !ok) return tl::unexpected(ok.error());
        variant.steps.push_back(std::move(step));
      }
      for (auto [key, field] : {std::pair{"wire", &variant.wire},
                                std::pair{"stored", &variant.stored}}) {
        auto refs = v.string_array(key, check_object_reference, true);
        if (!refs) return tl::unexpected(refs.error());
        if (*refs) *field = std::move(**refs);
      }
      if (auto ok = v.finish(); !ok) return tl::unexpected(ok.error());
      w.variants.push_back(std::move(variant));
    }
    if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
    workflows.push_back(std::move(w));
  }
  return workflows;
}

std::vector<std::string> operations_named_by_analyses(const model::Suite& suite) {
  std::vector<std::string> ops;
  if (suite.fairness)
    for (const auto& op : suite.fairness->operations) add_unique(ops, op);
  for (const auto& w : suite.workflows)
    for (const auto& v : w.variants) {
      for (const auto& s : v.steps)
        for (const auto& op : s.operations) add_unique(ops, op);
      for (const auto* refs : {&v.wire, &v.stored})
        for (const auto& ref : *refs) add_unique(ops, ref.substr(0, ref.rfind('.')));
    }
  return ops;
}

}  // namespace fathom::suite
