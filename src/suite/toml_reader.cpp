#include "suite/toml_reader.h"

#include <fmt/core.h>

#include <algorithm>
#include <tuple>

namespace fathom::suite {

std::string location(std::string_view source_name, const toml::source_region& region) {
  const auto line = std::max<toml::source_index>(region.begin.line, 1);
  const auto column = std::max<toml::source_index>(region.begin.column, 1);
  return fmt::format("{}:{}:{}", source_name, line, column);
}

bool is_valid_name(std::string_view name) {
  if (name.empty()) return false;
  auto lower_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!lower_or_digit(name.front())) return false;
  return std::all_of(name.begin() + 1, name.end(),
                     [&](char c) { return lower_or_digit(c) || c == '_' || c == '.' || c == '-'; });
}

bool is_c_identifier(std::string_view name) {
  if (name.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(name.front())) return false;
  return std::all_of(name.begin() + 1, name.end(),
                     [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

namespace {

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::table:
      return "a table";
    default:
      return "nothing";
  }
}

}  // namespace

TableReader::TableReader(const toml::table& table, std::string_view source_name,
                         std::string context)
    : table_(table), source_name_(source_name), context_(std::move(context)) {}

const toml::node* TableReader::lookup(std::string_view key) {
  known_keys_.emplace(key);
  return table_.get(key);
}

util::Error TableReader::error_at(const toml::node* node, std::string_view message) const {
  const auto& region = node ? node->source() : table_.source();
  return util::Error{fmt::format("{}: {}", location(source_name_, region), message)};
}

util::Error TableReader::error_at_key(std::string_view key, std::string_view message) const {
  return error_at(table_.get(key), message);
}

util::Result<std::optional<std::string>> TableReader::string(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return std::optional<std::string>{};
  if (const auto* value = node->as_string()) return std::optional<std::string>{value->get()};
  return tl::unexpected(error_at(
      node, fmt::format("'{}' in {} must be a string, not {}", key, context_, type_name(*node))));
}

util::Result<std::string> TableReader::required_string(std::string_view key) {
  auto value = string(key);
  if (!value) return tl::unexpected(value.error());
  if (!*value)
    return tl::unexpected(
        error_at(nullptr, fmt::format("{} is missing required key '{}'", context_, key)));
  return std::move(**value);
}

util::Result<std::optional<bool>> TableReader::boolean(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return std::optional<bool>{};
  if (const auto* value = node->as_boolean()) return std::optional<bool>{value->get()};
  return tl::unexpected(error_at(node, fmt::format("'{}' in {} must be true or false, not {}", key,
                                                   context_, type_name(*node))));
}

util::Result<std::optional<int64_t>> TableReader::integer(std::string_view key, int64_t min,
                                                          int64_t max) {
  const toml::node* node = lookup(key);
  if (!node) return std::optional<int64_t>{};
  const auto* value = node->as_integer();
  if (!value)
    return tl::unexpected(error_at(node, fmt::format("'{}' in {} must be an integer, not {}", key,
                                                     context_, type_name(*node))));
  const int64_t v = value->get();
  if (v < min || v > max)
    return tl::unexpected(error_at(
        node,
        fmt::format("'{}' in {} is {}; it must be between {} and {}", key, context_, v, min, max)));
  return std::optional<int64_t>{v};
}

util::Result<std::optional<double>> TableReader::number(std::string_view key, double min,
                                                        double max) {
  const toml::node* node = lookup(key);
  if (!node) return std::optional<double>{};
  std::optional<double> v;
  if (const auto* f = node->as_floating_point()) v = f->get();
  if (const auto* i = node->as_integer()) v = static_cast<double>(i->get());
  if (!v)
    return tl::unexpected(error_at(node, fmt::format("'{}' in {} must be a number, not {}", key,
                                                     context_, type_name(*node))));
  if (!(*v >= min && *v <= max))
    return tl::unexpected(error_at(
        node, fmt::format("'{}' in {} is {}; it must be between {} and {}", key, context_, *v,
                          min, max)));
  return v;
}

util::Result<std::optional<std::vector<std::string>>> TableReader::string_array(
    std::string_view key, std::string (*element_check)(std::string_view), bool unique) {
  const toml::node* node = lookup(key);
  if (!node) return std::optional<std::vector<std::string>>{};
  const auto* array = node->as_array();
  if (!array)
    return tl::unexpected(
        error_at(node, fmt::format("'{}' in {} must be an array of strings, not {}", key, context_,
                                   type_name(*node))));
  std::vector<std::string> out;
  out.reserve(array->size());
  for (const toml::node& element : *array) {
    const auto* text = element.as_string();
    if (!text)
      return tl::unexpected(
          error_at(&element, fmt::format("'{}' in {} must contain only strings, found {}", key,
                                         context_, type_name(element))));
    if (element_check) {
      const std::string problem = element_check(text->get());
      if (!problem.empty())
        return tl::unexpected(
            error_at(&element, fmt::format("'{}' in {}: {}", key, context_, problem)));
    }
    if (unique && std::find(out.begin(), out.end(), text->get()) != out.end())
      return tl::unexpected(error_at(
          &element, fmt::format("'{}' in {} lists '{}' twice", key, context_, text->get())));
    out.push_back(text->get());
  }
  return std::optional<std::vector<std::string>>{std::move(out)};
}

util::Result<const toml::table*> TableReader::table(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return nullptr;
  if (const auto* t = node->as_table()) return t;
  return tl::unexpected(error_at(
      node, fmt::format("'{}' in {} must be a table, not {}", key, context_, type_name(*node))));
}

util::Result<const toml::array*> TableReader::table_array(std::string_view key) {
  const toml::node* node = lookup(key);
  if (!node) return nullptr;
  const auto* array = node->as_array();
  if (!array || !array->is_array_of_tables())
    return tl::unexpected(
        error_at(node, fmt::format("'{}' in {} must be an array of tables ([[{}]]), not {}", key,
                                   context_, key, type_name(*node))));
  return array;
}

util::Result<void> TableReader::finish() const {
  const toml::key* first = nullptr;
  auto position = [](const toml::key& k) {
    return std::make_tuple(k.source().begin.line, k.source().begin.column);
  };
  for (auto&& [key, value] : table_) {
    (void)value;
    if (known_keys_.count(key.str())) continue;
    if (!first || position(key) < position(*first)) first = &key;
  }
  if (!first) return {};
  return util::fail(fmt::format("{}: unknown key '{}' in {}",
                                location(source_name_, first->source()), first->str(), context_));
}

}  // namespace fathom::suite
