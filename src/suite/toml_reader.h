#pragma once
// Strict, position-reporting access to one TOML table, shared by the suite and board loaders.
//
// Every error is one line `FILE:LINE:COL: message`, pointing at the offending key or value (or
// at the table's header when a required key is missing). A key that the caller never asked
// for is an error once `finish()` runs, so a typo such as `runz = 5` cannot pass silently.
#include <toml++/toml.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "util/error.h"

namespace fathom::suite {

// "FILE:LINE:COL" of `region`; line and column are 1-based (1:1 when the region is unknown).
std::string location(std::string_view source_name, const toml::source_region& region);

// True if `name` matches [a-z0-9][a-z0-9_.-]* (names of suites, configurations, boards,
// libraries and operations).
bool is_valid_name(std::string_view name);

// True if `name` is a C identifier ([A-Za-z_][A-Za-z0-9_]*).
bool is_c_identifier(std::string_view name);

class TableReader {
 public:
  // `table` must outlive the reader. `context` names the table in messages, e.g. "[suite]" or
  // "[[configuration]] 'mbedtls'".
  TableReader(const toml::table& table, std::string_view source_name, std::string context);

  // Each getter marks `key` as known. A missing key gives std::nullopt; a present key of the
  // wrong type or out of range is an error at the value's position.
  util::Result<std::optional<std::string>> string(std::string_view key);
  util::Result<std::optional<bool>> boolean(std::string_view key);
  // Integer within [min, max] (inclusive).
  util::Result<std::optional<int64_t>> integer(std::string_view key, int64_t min, int64_t max);
  // Integer or float within [min, max] (inclusive).
  util::Result<std::optional<double>> number(std::string_view key, double min, double max);
  // Array whose every element is a string; `element_check` (may be null) returns an error text
  // for a bad element, or "" if the element is fine. Duplicate elements are an error if
  // `unique` is set.
  util::Result<std::optional<std::vector<std::string>>> string_array(
      std::string_view key, std::string (*element_check)(std::string_view) = nullptr,
      bool unique = false);
  // A sub-table (e.g. `expect` in `expect.symbols_present = [...]`); nullptr if absent.
  util::Result<const toml::table*> table(std::string_view key);
  // An array of tables (`[[memory]]`); nullptr if absent.
  util::Result<const toml::array*> table_array(std::string_view key);

  // Like string(), but a missing key is an error.
  util::Result<std::string> required_string(std::string_view key);

  // An error located at `node` (or at this table when `node` is null).
  util::Error error_at(const toml::node* node, std::string_view message) const;
  // An error at the value of `key` (or at this table if the key is absent).
  util::Error error_at_key(std::string_view key, std::string_view message) const;

  // Fails on the first key (in file order) that no getter asked for.
  util::Result<void> finish() const;

  const std::string& context() const { return context_; }

 private:
  const toml::node* lookup(std::string_view key);

  const toml::table& table_;
  std::string source_name_;
  std::string context_;
  std::set<std::string, std::less<>> known_keys_;
};

}  // namespace fathom::suite
