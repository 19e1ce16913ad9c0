#include <fmt/core.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/history_database.h"
#include "history/run_store.h"
#include "util/error.h"

namespace fathom::cli {
namespace {

struct BaselineFlags {
  std::string name;
  std::string run;
  std::string db;
};

[[noreturn]] void throw_error(const util::Error& error) {
  throw util::FatalError(error.message, error.is_usage ? kExitUsage : kExitFailure);
}

int set_baseline(const BaselineFlags& flags) {
  history::RunStore store = open_history_or_throw(flags.db, history::RunStore::Access::kReadWrite);
  auto id = store.find(flags.run);
  if (!id) throw_error(id.error());
  if (auto done = store.set_baseline(flags.name, *id); !done) throw_error(done.error());
  fmt::print("baseline {} = run {}\n", flags.name, *id);
  return kExitOk;
}

int list_baselines(const BaselineFlags& flags) {
  history::RunStore store = open_history_or_throw(flags.db, history::RunStore::Access::kRead);
  auto baselines = store.list_baselines();
  if (!baselines) throw_error(baselines.error());
  if (baselines->empty()) {
    fmt::print("no baseline is set (fathom baseline set NAME RUN)\n");
    return kExitOk;
  }
  fmt::print("{:<20}  {:>5}  {:<20}  {:<20}  {}\n", "baseline", "run", "run date (UTC)",
             "set (UTC)", "git");
  for (const auto& b : *baselines) {
    auto run = store.summary(b.run_id);
    const std::string date = run ? run->timestamp_utc : "?";
    const std::string git = run && run->git_revision
                                ? run->git_revision->substr(0, 12) + (run->git_dirty ? "+" : "")
                                : "-";
    fmt::print("{:<20}  {:>5}  {:<20}  {:<20}  {}\n", b.name, b.run_id, date, b.set_utc, git);
  }
  return kExitOk;
}

}  // namespace

void register_baseline_command(CLI::App& app, CommandState& state) {
  auto flags = std::make_shared<BaselineFlags>();
  auto* cmd = app.add_subcommand("baseline", "Name stored runs to compare against");
  cmd->require_subcommand(1);
  auto* set = cmd->add_subcommand("set", "Point baseline NAME at a stored run (replaces it)");
  set->add_option("name", flags->name, "Baseline name, e.g. main")->required();
  set->add_option("run", flags->run, "Run id, 'latest', a run --name or another baseline")
      ->required();
  set->add_option("--db", flags->db, "History database (default: see docs/CLI.md)");
  set->callback([flags, &state] { state.exit_code = set_baseline(*flags); });
  auto* list = cmd->add_subcommand("list", "List the baselines and the runs they point at");
  list->add_option("--db", flags->db, "History database (default: see docs/CLI.md)");
  list->callback([flags, &state] { state.exit_code = list_baselines(*flags); });
}

}  // namespace fathom::cli
