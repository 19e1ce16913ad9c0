#include "suite/suite_loader.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>

#include "suite/analysis_specs.h"
#include "suite/matrix.h"
#include "suite/toml_reader.h"
#include "util/name_suggestion.h"

namespace fathom::suite {
namespace {

constexpr std::string_view kNameRule =
    "use lower-case letters, digits, '_', '.' and '-', starting with a letter or digit";

std::string check_name(std::string_view name) {
  if (is_valid_name(name)) return "";
  return fmt::format("'{}' is not a valid name ({})", name, kNameRule);
}

std::string check_identifier(std::string_view name) {
  if (is_c_identifier(name)) return "";
  return fmt::format("'{}' is not a C identifier", name);
}

// An operation name pattern (util/glob.h): operation-name characters ([a-z0-9_]) and the
// wildcards '*' and '?'.
std::string check_operation_pattern(std::string_view pattern) {
  const bool ok = !pattern.empty() && std::all_of(pattern.begin(), pattern.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '*' || c == '?';
  });
  if (ok) return "";
  return fmt::format("'{}' is not an operation name pattern (lower-case letters, digits and '_', "
                     "with '*' for any run of characters and '?' for one, e.g. \"*_keygen\")",
                     pattern);
}

// "FUNCTION:MNEMONIC": a C identifier, a colon, and an instruction mnemonic ([a-z0-9.]+, as
// Capstone and objdump print it: "umaal", "udiv", "vmla.f32").
std::string check_function_instruction(std::string_view item) {
  const auto colon = item.find(':');
  const std::string_view function = item.substr(0, colon);
  const std::string_view mnemonic =
      colon == std::string_view::npos ? std::string_view{} : item.substr(colon + 1);
  const bool mnemonic_ok = !mnemonic.empty() && std::all_of(mnemonic.begin(), mnemonic.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.';
  });
  if (colon == std::string_view::npos || !is_c_identifier(function) || !mnemonic_ok)
    return fmt::format("'{}' is not FUNCTION:MNEMONIC (a C identifier, ':', a lower-case "
                       "instruction mnemonic such as \"mbedtls_mpi_core_mla:umaal\")",
                       item);
  return "";
}

// "NAME" or "NAME=VALUE" with NAME a C identifier and VALUE free of control characters.
std::string check_define(std::string_view define) {
  const auto eq = define.find('=');
  const std::string_view name = define.substr(0, eq);
  if (!is_c_identifier(name))
    return fmt::format("'{}' is not NAME or NAME=VALUE with NAME a C identifier", define);
  if (std::any_of(define.begin(), define.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return fmt::format("'{}' contains a control character", define);
  return "";
}

// Compiler flags are passed as separate arguments (never through a shell); they must look
// like flags so that a stray file name cannot sneak into the link.
std::string check_cflag(std::string_view flag) {
  if (flag.size() < 2 || flag.front() != '-')
    return fmt::format("'{}' is not a compiler flag (flags start with '-')", flag);
  if (std::any_of(flag.begin(), flag.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    return fmt::format("'{}' contains a control character", flag);
  return "";
}

std::string macro_name(std::string_view define) {
  return std::string(define.substr(0, define.find('=')));
}

// Returns early with the error of a failed Result, else binds it to `var`.
#define FATHOM_TRY(var, expr) \
  auto var = (expr);          \
  if (!var) return tl::unexpected(std::move(var).error())

bool is_known(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The usage error at the first string of `array` (a checked array of strings) that is not in
// `names`; nullopt when all are.
std::optional<util::Error> unknown_element(const toml::node* array, std::string_view source,
                                           const std::vector<std::string>& names,
                                           std::string_view kind, std::string_view plural) {
  if (!array || !array->is_array()) return std::nullopt;
  for (const toml::node& element : *array->as_array()) {
    const std::string value = element.value_or(std::string());
    if (is_known(names, value)) continue;
    util::Error error;
    error.message = fmt::format("{}: {}", location(source, element.source()),
                                util::unknown_name_message(kind, plural, value, names));
    error.is_usage = true;
    return error;
  }
  return std::nullopt;
}

// `defines` and `undefines` of `r` (a configuration or one of its library_options): library
// configuration macros, none both defined and undefined.
util::Result<void> macro_options(TableReader& r, std::vector<std::string>& defines,
                                 std::vector<std::string>& undefines) {
  FATHOM_TRY(d, r.string_array("defines", check_define, true));
  FATHOM_TRY(u, r.string_array("undefines", check_identifier, true));
  if (*d) defines = std::move(**d);
  if (*u) undefines = std::move(**u);
  for (const auto& define : defines) {
    const std::string macro = macro_name(define);
    if (std::find(undefines.begin(), undefines.end(), macro) != undefines.end())
      return tl::unexpected(r.error_at_key(
          "undefines", fmt::format("{} both defines and undefines {}", r.context(), macro)));
  }
  return {};
}

util::Result<model::Configuration> parse_configuration(const toml::table& table,
                                                       std::string_view source, size_t index,
                                                       const KnownNames* known) {
  TableReader reader(table, source, fmt::format("[[configuration]] #{}", index + 1));
  model::Configuration config;
  FATHOM_TRY(name, reader.required_string("name"));
  if (auto problem = check_name(*name); !problem.empty())
    return tl::unexpected(reader.error_at_key("name", problem));
  config.name = *name;
  TableReader r(table, source, fmt::format("[[configuration]] '{}'", config.name));
  (void)r.string("name");

  FATHOM_TRY(library, r.required_string("library"));
  if (auto problem = check_name(*library); !problem.empty())
    return tl::unexpected(r.error_at_key("library", problem));
  config.library = *library;
  if (known && !is_known(known->libraries, config.library)) {
    util::Error error = r.error_at_key(
        "library",
        util::unknown_name_message("library", "libraries", config.library, known->libraries));
    error.is_usage = true;
    return tl::unexpected(std::move(error));
  }

  FATHOM_TRY(description, r.string("description"));
  config.description = description->value_or("");
  FATHOM_TRY(with_libraries, r.string_array("with_libraries", check_name, true));
  if (*with_libraries) {
    config.with_libraries = std::move(**with_libraries);
    if (known)
      if (auto error = unknown_element(table.get("with_libraries"), source, known->libraries,
                                       "library", "libraries"))
        return tl::unexpected(std::move(*error));
    if (std::find(config.with_libraries.begin(), config.with_libraries.end(), config.library) !=
        config.with_libraries.end())
      return tl::unexpected(r.error_at_key(
          "with_libraries", fmt::format("'{}' is already the configuration's library",
                                        config.library)));
  }

  auto strings = [&](std::string_view key, std::vector<std::string>& field,
                     std::string (*check)(std::string_view), bool unique) -> util::Result<void> {
    auto value = r.string_array(key, check, unique);
    if (!value) return tl::unexpected(value.error());
    if (*value) field = std::move(**value);
    return {};
  };
  if (auto ok = strings("operations", config.operations, check_name, true); !ok)
    return tl::unexpected(ok.error());
  config.cflags = {"-O2"};
  if (auto ok = strings("cflags", config.cflags, check_cflag, false); !ok)
    return tl::unexpected(ok.error());
  if (auto ok = macro_options(r, config.defines, config.undefines); !ok)
    return tl::unexpected(ok.error());
  if (auto ok = strings("harness_defines", config.harness_defines, check_define, true); !ok)
    return tl::unexpected(ok.error());

  FATHOM_TRY(library_options, r.table("library_options"));
  if (*library_options) {
    for (auto&& [key, node] : **library_options) {
      const std::string name(key.str());
      const std::string context = fmt::format("library_options.{} of {}", name, r.context());
      if (!is_known(config.with_libraries, name)) {
        util::Error error;
        error.message = fmt::format(
            "{}: {}: '{}' is not in with_libraries; options apply to a library linked in "
            "(the configuration's own library '{}' takes `defines` and `undefines` directly)",
            location(source, node.source()), context, name, config.library);
        error.is_usage = true;
        return tl::unexpected(std::move(error));
      }
      if (!node.is_table())
        return tl::unexpected(r.error_at(
            &node, fmt::format("{} must be a table (defines, undefines, operations)", context)));
      TableReader o(*node.as_table(), source, context);
      model::LibraryOptions options;
      if (auto ok = macro_options(o, options.defines, options.undefines); !ok)
        return tl::unexpected(ok.error());
      FATHOM_TRY(operations, o.boolean("operations"));
      options.operations = operations->value_or(true);
      if (auto ok = o.finish(); !ok) return tl::unexpected(ok.error());
      config.library_options.emplace(name, std::move(options));
    }
  }

  FATHOM_TRY(libc, r.string("libc"));
  if (*libc) {
    const bool known = std::any_of(std::begin(model::kLibcNames), std::end(model::kLibcNames),
                                   [&](const char* n) { return **libc == n; });
    if (!known)
      return tl::unexpected(r.error_at_key(
          "libc", fmt::format("unknown C library '{}' (use one of: {})", **libc,
                              fmt::join(model::kLibcNames, ", "))));
    config.libc = **libc;
  }

  FATHOM_TRY(fairness_group, r.string("fairness_group"));
  if (*fairness_group) {
    if (auto problem = check_name(**fairness_group); !problem.empty())
      return tl::unexpected(r.error_at_key("fairness_group", problem));
    config.fairness_group = **fairness_group;
  }

  FATHOM_TRY(expect, r.table("expect"));
  if (*expect) {
    TableReader e(**expect, source, fmt::format("'expect' of {}", r.context()));
    FATHOM_TRY(present, e.string_array("symbols_present", check_identifier, true));
    FATHOM_TRY(absent, e.string_array("symbols_absent", check_identifier, true));
    FATHOM_TRY(in_present,
               e.string_array("instructions_present", check_function_instruction, true));
    FATHOM_TRY(in_absent,
               e.string_array("instructions_absent", check_function_instruction, true));
    if (*present) config.expect_symbols_present = std::move(**present);
    if (*absent) config.expect_symbols_absent = std::move(**absent);
    if (*in_present) config.expect_instructions_present = std::move(**in_present);
    if (*in_absent) config.expect_instructions_absent = std::move(**in_absent);
    if (auto ok = e.finish(); !ok) return tl::unexpected(ok.error());
    for (const auto& symbol : config.expect_symbols_present)
      if (std::find(config.expect_symbols_absent.begin(), config.expect_symbols_absent.end(),
                    symbol) != config.expect_symbols_absent.end())
        return tl::unexpected(e.error_at_key(
            "symbols_absent", fmt::format("symbol '{}' is expected both present and absent in {}",
                                          symbol, r.context())));
  }

  if (auto ok = r.finish(); !ok) return tl::unexpected(ok.error());
  return config;
}

}  // namespace

util::Result<model::Suite> parse_suite(std::string_view text, std::string source_name,
                                       const KnownNames* known) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& e) {
    return util::fail(fmt::format("{}: {}", location(source_name, e.source()), e.description()));
  }

  model::Suite suite;
  suite.path = source_name;
  TableReader top(root, source_name, "the top level of the suite file");
  FATHOM_TRY(header, top.table("suite"));
  if (!*header)
    return util::fail(fmt::format("{}: missing the [suite] table (name, boards, runs, ...)",
                                  location(source_name, {})));
  TableReader s(**header, source_name, "[suite]");
  FATHOM_TRY(name, s.required_string("name"));
  if (auto problem = check_name(*name); !problem.empty())
    return tl::unexpected(s.error_at_key("name", problem));
  suite.name = *name;
  FATHOM_TRY(description, s.string("description"));
  suite.description = description->value_or("");

  FATHOM_TRY(boards, s.string_array("boards", check_name, true));
  if (!*boards || (*boards)->empty())
    return tl::unexpected(s.error_at_key(
        "boards", "[suite] needs 'boards' with at least one board, e.g. boards = [\"sim-m33\"]"));
  suite.boards = std::move(**boards);
  if (known)
    if (auto error = unknown_element((*header)->get("boards"), source_name, known->boards, "board",
                                     "boards"))
      return tl::unexpected(std::move(*error));

  FATHOM_TRY(runs, s.integer("runs", 1, kMaxRuns));
  if (*runs) suite.runs = static_cast<uint32_t>(**runs);
  FATHOM_TRY(warmup, s.integer("warmup", 0, kMaxRuns));
  if (*warmup) suite.warmup = static_cast<uint32_t>(**warmup);
  FATHOM_TRY(operations, s.string_array("operations", check_name, true));
  if (*operations) suite.operations = std::move(**operations);
  FATHOM_TRY(fresh, s.string_array("fresh_inputs", check_operation_pattern, true));
  if (*fresh) suite.fresh_inputs = std::move(**fresh);
  FATHOM_TRY(budget, s.integer("cycle_budget", 1, std::numeric_limits<int64_t>::max()));
  if (*budget) suite.cycle_budget = static_cast<uint64_t>(**budget);
  if (auto ok = s.finish(); !ok) return tl::unexpected(ok.error());

  FATHOM_TRY(configurations, top.table_array("configuration"));
  if (!*configurations)
    return util::fail(
        fmt::format("{}: the suite has no [[configuration]]; add at least one (name, library)",
                    location(source_name, (*header)->source())));
  size_t index = 0;
  for (const toml::node& node : **configurations) {
    FATHOM_TRY(config, parse_configuration(*node.as_table(), source_name, index, known));
    for (const auto& earlier : suite.configurations)
      if (earlier.name == config->name) {
        const toml::node* name_node = node.as_table()->get("name");
        return util::fail(fmt::format("{}: configuration name '{}' is used twice",
                                      location(source_name, name_node->source()), config->name));
      }
    suite.configurations.push_back(std::move(*config));
    ++index;
  }
  FATHOM_TRY(fairness, top.table("fairness"));
  if (*fairness) {
    FATHOM_TRY(spec, parse_fairness(**fairness, source_name));
    suite.fairness = std::move(*spec);
  }
  FATHOM_TRY(workflows, top.table_array("workflow"));
  if (*workflows) {
    FATHOM_TRY(list, parse_workflows(**workflows, source_name));
    suite.workflows = std::move(*list);
  }
  FATHOM_TRY(matrix, top.table("matrix"));
  if (*matrix)
    if (auto ok = expand_matrix(suite, **matrix, source_name); !ok)
      return tl::unexpected(ok.error());
  if (auto ok = top.finish(); !ok) return tl::unexpected(ok.error());
  return suite;
}

#undef FATHOM_TRY

util::Result<model::Suite> load_suite(const std::filesystem::path& path, const KnownNames* known) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return util::fail(
        fmt::format("{}: cannot read the suite file (does it exist?)", path.string()));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad())
    return util::fail(fmt::format("{}: error while reading the suite file", path.string()));
  auto suite = parse_suite(text.str(), path.string(), known);
  if (suite) suite->path = path;
  return suite;
}

util::Result<const model::Configuration*> find_configuration(const model::Suite& suite,
                                                             std::string_view name) {
  for (const auto& config : suite.configurations)
    if (config.name == name) return &config;
  std::vector<std::string> names;
  for (const auto& config : suite.configurations) names.push_back(config.name);
  return util::fail(fmt::format("suite '{}' has no configuration '{}'; it has: {}", suite.name,
                                name, fmt::join(names, ", ")));
}

}  // namespace fathom::suite
