#include <fmt/core.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history_database.h"
#include "history/run_store.h"
#include "util/error.h"

namespace fathom::cli {
namespace {

struct HistoryFlags {
  std::vector<std::string> operations;
  std::vector<std::string> configurations;
  std::vector<std::string> boards;
  std::string metric = "cycles";
  std::string db;
  std::string format = "table";
};

std::string revision_text(const history::HistoryRow& row) {
  if (!row.git_revision) return "-";
  return row.git_revision->substr(0, 12) + (row.git_dirty ? "+" : "");
}

// Whole numbers for people; the CSV keeps a half-cycle median exactly.
std::string value_text(const std::optional<double>& value, bool exact = false) {
  if (!value) return "";
  return exact ? fmt::format("{}", *value) : fmt::format("{:.0f}", *value);
}

// CSV field: quoted only when it holds a separator, quote or line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

void print_table(const std::vector<history::HistoryRow>& rows, std::string_view metric) {
  fmt::print("{:>5}  {:<20}  {:<13}  {:<24}  {:<10}  {:<24}  {:>14}\n", "run", "date (UTC)", "git",
             "configuration", "board", "operation", metric);
  for (const auto& r : rows)
    fmt::print("{:>5}  {:<20}  {:<13}  {:<24}  {:<10}  {:<24}  {:>14}\n", r.run_id, r.timestamp_utc,
               revision_text(r), r.configuration, r.board, r.operation,
               r.value ? value_text(r.value) : "-");
  if (rows.empty()) fmt::print("(no stored run matches)\n");
}

int history(const HistoryFlags& flags) {
  auto metric = history::parse_metric(flags.metric);
  if (!metric) throw util::FatalError(metric.error().message, kExitUsage);
  history::RunStore store = open_history_or_throw(flags.db, history::RunStore::Access::kRead);
  history::HistoryQuery query;
  query.operations = flags.operations;
  query.configurations = flags.configurations;
  query.boards = flags.boards;
  query.metric = *metric;
  auto rows = store.history(query);
  if (!rows) throw util::FatalError(rows.error().message);
  const std::string_view name = history::metric_name(*metric);

  if (flags.format == "json") {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const auto& r : *rows) {
      nlohmann::ordered_json row;
      row["run"] = r.run_id;
      row["date"] = r.timestamp_utc;
      row["name"] =
          r.run_name.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.run_name);
      row["git_revision"] = r.git_revision ? nlohmann::ordered_json(*r.git_revision) : nullptr;
      row["git_dirty"] = r.git_dirty;
      row["configuration"] = r.configuration;
      row["board"] = r.board;
      row["operation"] = r.operation;
      row["metric"] = name;
      row["value"] = r.value ? nlohmann::ordered_json(*r.value) : nullptr;
      out.push_back(std::move(row));
    }
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << '\n';
  } else if (flags.format == "csv") {
    fmt::print("run,date,name,git_revision,git_dirty,configuration,board,operation,{}\n", name);
    for (const auto& r : *rows)
      fmt::print("{},{},{},{},{},{},{},{},{}\n", r.run_id, r.timestamp_utc, csv_field(r.run_name),
                 r.git_revision.value_or(""), r.git_dirty ? 1 : 0, csv_field(r.configuration),
                 csv_field(r.board), csv_field(r.operation), value_text(r.value, true));
  } else {
    print_table(*rows, name);
  }
  return kExitOk;
}

}  // namespace

void register_history_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<HistoryFlags>();
  auto* cmd = app.add_subcommand(
      "history", "Show one figure of stored runs over time (one row per run and operation)");
  cmd->add_option("--op", flags->operations, "Only these operations (repeatable)")->expected(1, -1);
  cmd->add_option("--config", flags->configurations, "Only these configurations (repeatable)")
      ->expected(1, -1);
  cmd->add_option("--board", flags->boards, "Only these boards (repeatable)")->expected(1, -1);
  cmd->add_option("--metric", flags->metric,
                  "cycles (median), instructions (median), stack or heap (peak bytes)")
      ->check(CLI::IsMember({"cycles", "instructions", "stack", "heap"}));
  cmd->add_option("--db", flags->db, "History database (default: see docs/CLI.md)");
  auto* format = cmd->add_option("--format", flags->format, "Output format: table, json, csv")
                     ->check(CLI::IsMember({"table", "json", "csv"}));
  state.json_errors.add(*cmd, *format);
  cmd->callback([flags, &state] { state.exit_code = history(*flags); });
}

}  // namespace fathom::cli
