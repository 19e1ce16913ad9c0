#include "cli/ct_allowlist.h"

#include <fmt/core.h>

#include <fstream>
#include <sstream>

#include "suite/toml_reader.h"

namespace fathom::cli {
namespace {

#define FATHOM_TRY(var, expr) \
  auto var = (expr);          \
  if (!var) return tl::unexpected(std::move(var).error())

std::string check_class(std::string_view name) {
  for (int i = 0; i < profile::kTaintClasses; ++i)
    if (name == profile::taint_class_name(static_cast<profile::TaintClass>(i))) return "";
  std::string known;
  for (int i = 0; i < profile::kTaintClasses; ++i)
    known += fmt::format("{}{}", i ? ", " : "",
                         profile::taint_class_name(static_cast<profile::TaintClass>(i)));
  return fmt::format("unknown finding class '{}' (one of {})", name, known);
}

// "library/bignum.c" ends "/src/mbedtls/library/bignum.c"; "num.c" does not.
bool path_ends_with(std::string_view path, std::string_view tail) {
  if (tail.size() > path.size() || path.substr(path.size() - tail.size()) != tail) return false;
  return tail.size() == path.size() || tail.front() == '/' ||
         path[path.size() - tail.size() - 1] == '/';
}

bool matches(const AllowEntry& e, const TaintCheck& c, const TaintSite& s) {
  auto any_or = [](const std::string& want, const std::string& have) {
    return want.empty() || want == have;
  };
  return e.function == s.function && any_or(e.operation, c.operation) &&
         any_or(e.cls, profile::taint_class_name(s.finding.cls)) &&
         any_or(e.configuration, c.configuration) && any_or(e.board, c.board) &&
         (e.line == 0 || (s.line == e.line && path_ends_with(s.file, e.file)));
}

// `line = "FILE:N"`: the file and the line number, or a message saying what is wrong.
std::string parse_line(std::string_view text, AllowEntry& e) {
  const size_t colon = text.rfind(':');
  const std::string_view file = colon == std::string_view::npos ? "" : text.substr(0, colon);
  const std::string_view number = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  uint32_t n = 0;
  bool ok = !file.empty() && !number.empty() && number.size() <= 9;
  for (char ch : number) {
    ok = ok && ch >= '0' && ch <= '9';
    n = n * 10 + static_cast<uint32_t>(ch - '0');
  }
  if (!ok || n == 0)
    return fmt::format("line '{}' is not FILE:LINE (a source file and a line number from 1, "
                       "as a finding names it: \"bignum.c:1103\")",
                       text);
  e.file = std::string(file);
  e.line = n;
  return "";
}

}  // namespace

util::Result<std::vector<AllowEntry>> load_allowlist(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return util::fail_usage(fmt::format("--allow {}: cannot read the file", path.string()));
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = path.string();
  toml::table root;
  try {
    root = toml::parse(text.str(), source);
  } catch (const toml::parse_error& e) {
    return util::fail_usage(
        fmt::format("{}: {}", suite::location(source, e.source()), e.description()));
  }
  suite::TableReader top(root, source, "the top level of the allow file");
  FATHOM_TRY(tables, top.table_array("allow"));
  if (auto ok = top.finish(); !ok) return util::fail_usage(ok.error().message);
  std::vector<AllowEntry> out;
  if (!*tables) return out;
  for (const toml::node& node : **tables) {
    const toml::table& table = *node.as_table();
    AllowEntry e;
    e.where = suite::location(source, table.source());
    suite::TableReader r(table, source, "[[allow]]");
    auto usage = [](util::Error error) {
      error.is_usage = true;
      return tl::unexpected(std::move(error));
    };
    auto function = r.required_string("function");
    if (!function) return usage(function.error());
    auto reason = r.required_string("reason");
    if (!reason) return usage(reason.error());
    if (reason->empty()) return usage(r.error_at_key("reason", "an allowance needs a reason"));
    e.function = *function;
    e.reason = *reason;
    for (auto [key, field] : {std::pair{"operation", &e.operation}, {"class", &e.cls},
                              {"configuration", &e.configuration}, {"board", &e.board}}) {
      auto value = r.string(key);
      if (!value) return usage(value.error());
      if (*value) *field = **value;
    }
    if (!e.cls.empty())
      if (const std::string problem = check_class(e.cls); !problem.empty())
        return usage(r.error_at_key("class", problem));
    auto line = r.string("line");
    if (!line) return usage(line.error());
    if (*line)
      if (const std::string problem = parse_line(**line, e); !problem.empty())
        return usage(r.error_at_key("line", problem));
    if (auto ok = r.finish(); !ok) return usage(ok.error());
    out.push_back(std::move(e));
  }
  return out;
}

void apply_allowlist(std::vector<AllowEntry>& entries, TaintCheck& check) {
  bool open = false, allowed = false;
  for (TaintSite& s : check.findings) {
    for (AllowEntry& e : entries)
      if (matches(e, check, s)) {
        s.allowed = e.reason;
        ++e.matched;
        break;
      }
    (s.allowed.empty() ? open : allowed) = true;
  }
  if (check.verdict == TaintVerdict::kNotChecked) return;
  check.verdict = open      ? TaintVerdict::kLeak
                  : allowed ? TaintVerdict::kAllowed
                            : TaintVerdict::kNoFinding;
}

}  // namespace fathom::cli
