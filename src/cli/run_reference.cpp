#include "cli/run_reference.h"

#include <fmt/core.h>

#include "cli/cli.h"
#include "cli/history_database.h"
#include "compare/result_file.h"
#include "util/error.h"

namespace fathom::cli {
namespace {

[[noreturn]] void throw_error(const util::Error& error) {
  throw util::FatalError(error.message, error.is_usage ? kExitUsage : kExitFailure);
}

}  // namespace

history::RunStore& LazyStore::get() {
  if (!store_) store_.emplace(open_history_or_throw(db_, history::RunStore::Access::kRead));
  return *store_;
}

RunReference load_run_reference(LazyStore& lazy_store, const std::string& text) {
  constexpr std::string_view kBaselinePrefix = "baseline:";
  const bool is_baseline = text.rfind(kBaselinePrefix, 0) == 0;
  if (!is_baseline && compare::names_result_file(text)) {
    auto run = compare::read_result_file(text);
    if (!run) throw_error(run.error());
    RunReference side{std::nullopt, text, std::move(*run), ""};
    side.description = fmt::format("file {} (suite {})", text, side.run.suite);
    return side;
  }
  history::RunStore& store = lazy_store.get();
  auto id = is_baseline ? store.baseline(text.substr(kBaselinePrefix.size())) : store.find(text);
  if (!id) throw_error(id.error());
  auto summary = store.summary(*id);
  if (!summary) throw_error(summary.error());
  auto run = store.load(*id);
  if (!run) throw_error(run.error());
  const history::RunSummary& s = *summary;
  std::string description = fmt::format("run {}", s.id);
  if (!s.name.empty()) description += fmt::format(" '{}'", s.name);
  description += fmt::format(" ({}", s.timestamp_utc);
  if (s.git_revision)
    description += fmt::format(", git {}{}", s.git_revision->substr(0, 12), s.git_dirty ? "+" : "");
  description += ")";
  return RunReference{*summary, "", std::move(*run), description};
}

}  // namespace fathom::cli
