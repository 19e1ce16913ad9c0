// `fathom sources [--fetch] [--lock FILE]`: the pinned third-party sources and where they are.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "sources/source_cache.h"
#include "sources/source_lock.h"
#include "util/cache_dir.h"
#include "util/error.h"

namespace fathom::cli {
namespace {

struct SourcesOptions {
  bool fetch = false;
  std::string lock_path;
};

struct Row {
  std::string name, version, status, sha256, path;
};

void print_table(const std::vector<Row>& rows) {
  Row header{"name", "version", "status", "sha256", "path"};
  std::size_t w_name = header.name.size(), w_version = header.version.size(),
              w_status = header.status.size(), w_sha = header.sha256.size();
  for (const auto& row : rows) {
    w_name = std::max(w_name, row.name.size());
    w_version = std::max(w_version, row.version.size());
    w_status = std::max(w_status, row.status.size());
    w_sha = std::max(w_sha, row.sha256.size());
  }
  auto print_row = [&](const Row& row) {
    fmt::print("{:<{}}  {:<{}}  {:<{}}  {:<{}}  {}\n", row.name, w_name, row.version, w_version,
               row.status, w_status, row.sha256, w_sha, row.path);
  };
  print_row(header);
  for (const auto& row : rows) print_row(row);
}

int run_sources(const SourcesOptions& options) {
  const auto lock_path = options.lock_path.empty() ? sources::default_lock_path()
                                                   : std::filesystem::path(options.lock_path);
  auto lock = sources::load_lock(lock_path);
  if (!lock) throw util::FatalError(lock.error().message, kExitUsage);
  auto cache_root = util::cache_dir();
  if (!cache_root) throw util::FatalError(cache_root.error().message);

  sources::SourceCache cache(
      *cache_root, util::process_env, sources::download_from_origin,
      [](const std::string& line) { fmt::print(stderr, "fathom: {}\n", line); });

  int exit_code = kExitOk;
  std::vector<std::string> problems;
  std::vector<Row> rows;
  for (const auto& entry : lock->sources) {
    auto status = cache.status(entry);
    const bool needs_fetch = status.state == sources::SourceState::kMissing ||
                             status.state == sources::SourceState::kDownloaded ||
                             status.state == sources::SourceState::kHashMismatch;
    if (options.fetch && needs_fetch) {
      if (auto fetched = cache.fetch(entry); !fetched) {
        problems.push_back(fetched.error().message);
        exit_code = kExitFailure;
      }
      status = cache.status(entry);
    } else if (!status.detail.empty()) {
      problems.push_back(fmt::format("{}: {}", entry.label(), status.detail));
    }
    if (status.state == sources::SourceState::kOverrideMissing) exit_code = kExitFailure;
    rows.push_back(Row{entry.name, entry.version, std::string(sources::state_name(status.state)),
                       entry.sha256.substr(0, 12), status.path.string()});
  }
  print_table(rows);
  for (const auto& problem : problems) fmt::print(stderr, "fathom: {}\n", problem);
  return exit_code;
}

}  // namespace

void register_sources_command(CLI::App& app, CommandState& state) {
  auto options = std::make_shared<SourcesOptions>();
  auto* cmd = app.add_subcommand(
      "sources",
      "Show the pinned third-party sources (sources.lock) and the cache; --fetch "
      "downloads and verifies the missing ones");
  cmd->add_flag("--fetch", options->fetch, "Download, verify and unpack sources not yet cached");
  cmd->add_option("--lock", options->lock_path,
                  "Lock file to read (default: the source tree's "
                  "sources.lock)");
  cmd->footer(
      "Cache: $FATHOM_CACHE_DIR, else $XDG_CACHE_HOME/fathom, else ~/.cache/fathom.\n"
      "Each source's env variable (e.g. FATHOM_SOURCE_MBEDTLS) overrides its location.");
  cmd->callback([&state, options] { state.exit_code = run_sources(*options); });
}

}  // namespace fathom::cli
