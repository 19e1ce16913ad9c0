#pragma once
// The history of runs in one SQLite database: every `fathom run` stores its results here, and
// `history`, `baseline` (and `compare`) read them back.
//
// Safety: open() only ever writes to a file that is missing, empty, an empty SQLite database,
// or already a fathom history (application_id kApplicationId and the fathom_meta marker).
// Anything else — not SQLite, damaged, another application's database — is an error naming the
// file, and its bytes are left exactly as they were.
//
// Concurrency: each RunStore is one connection (WAL journal, 10 s busy timeout); several
// processes or threads, each with its own RunStore, may store runs into one file at once.
// One RunStore must not be used from two threads at the same time.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/run_result.h"
#include "util/cache_dir.h"
#include "util/error.h"

namespace fathom::history {

// `PRAGMA application_id` of a fathom history database ("FTHM").
inline constexpr int32_t kApplicationId = 0x4654484D;
// Version of the tables below; a database with a newer version is refused, not rewritten.
// Nullable columns added since (operations.primitive_share_json, runs.result_json) are added
// on open without a new version: a fathom that does not know them ignores them.
inline constexpr int kSchemaVersion = 1;

// The history database: $FATHOM_HISTORY_DB if set, else <cache dir>/history.sqlite
// (util::cache_dir). Fails only when neither can be determined.
util::Result<std::filesystem::path> default_history_path(
    const util::EnvLookup& env = util::process_env);

// What a run was made from, besides its results.
struct RunContext {
  std::string name;                         // a label given with `run --name`; "" for none
  std::optional<std::string> git_revision;  // HEAD of the user's repository, if in one
  bool git_dirty = false;                   // tracked files differ from HEAD
  std::string timestamp_utc;                // "2024-05-01T12:00:00Z"; "" = now
};

// The git state of `directory` (default: the current directory): revision and dirty flag when
// it is inside a git work tree, nothing when it is not or git is missing. Never fails.
RunContext current_run_context(std::string name, const std::filesystem::path& directory = {});

// One stored run, without its results.
struct RunSummary {
  int64_t id = 0;
  std::string timestamp_utc;
  std::string suite;
  std::string name;  // "" if none
  std::optional<std::string> git_revision;
  bool git_dirty = false;
  int64_t images = 0;
};

struct Baseline {
  std::string name;
  int64_t run_id = 0;
  std::string set_utc;  // when it was last set
};

// The per-operation figure `history` follows over time.
enum class Metric { kCycles, kInstructions, kStack, kHeap };

// "cycles" (median), "instructions" (median), "stack" (peak_stack_bytes), "heap"
// (heap_peak_bytes); a usage error listing these for anything else.
util::Result<Metric> parse_metric(std::string_view name);
std::string_view metric_name(Metric metric);

// Filters of a history query; an empty list matches everything.
struct HistoryQuery {
  std::vector<std::string> operations;
  std::vector<std::string> configurations;
  std::vector<std::string> boards;
  Metric metric = Metric::kCycles;
};

// One stored run × one matching operation, oldest run first.
struct HistoryRow {
  int64_t run_id = 0;
  std::string timestamp_utc;
  std::string run_name;
  std::optional<std::string> git_revision;
  bool git_dirty = false;
  std::string configuration;
  std::string board;
  std::string operation;
  // The metric; nullopt where it was not measured (KAT failed, no heap tracking, ...).
  std::optional<double> value;
};

class RunStore {
 public:
  // What the caller does with the database.
  enum class Access {
    kCreate,     // stores runs: a missing file (and its parent directories) is created
    kReadWrite,  // changes an existing history (baseline set)
    kRead,       // only reads (history, baseline list, compare): opened SQLITE_OPEN_READONLY,
                 // unless it lacks a column added since schema 1 (then as kReadWrite, which adds
                 // it); storing through it fails
  };

  // Opens `db` for `access`. With kRead and kReadWrite a missing or empty file (or an empty
  // SQLite database) is a usage error saying that no run has been stored there; nothing is
  // created. See the safety note above for what is refused.
  static util::Result<RunStore> open(const std::filesystem::path& db,
                                     Access access = Access::kCreate);

  RunStore(RunStore&&) noexcept;
  RunStore& operator=(RunStore&&) noexcept;
  ~RunStore();

  const std::filesystem::path& path() const;

  // Stores `run` in one transaction and returns its new run id (ids start at 1 and grow).
  // The whole run is kept as the results model's JSON (model/run_result_json.h: every field
  // but the host time, console logs and the derived analyses included), and each operation's
  // figures also in columns that `history` queries. Measured figures of an operation whose KAT
  // did not pass are not stored (the rule of report/writer.h); its KAT status, vectors and
  // error are.
  util::Result<int64_t> store(const model::RunResult& run, const RunContext& context);

  // The results of run `id`, as stored. A run stored by a fathom that did not keep the whole
  // run yet is rebuilt from its columns: suite, images (configuration, board, completed,
  // error, fault, provenance, size, totals) and operations (KAT, samples, statistics
  // recomputed from the samples, memory, primitive share). An error naming the id if there is
  // no such run or what is stored does not read back.
  util::Result<model::RunResult> load(int64_t id);
  util::Result<RunSummary> summary(int64_t id);

  // The newest run's id; an error if the database holds no run.
  util::Result<int64_t> latest();

  // Resolves what a user typed to a run id, first match wins: a number (a run id that must
  // exist), "latest", a baseline name, the newest run stored with that --name. An error
  // listing the known baselines otherwise.
  util::Result<int64_t> find(std::string_view name_or_id);

  // Every stored run, oldest first.
  util::Result<std::vector<RunSummary>> list_runs();

  util::Result<std::vector<HistoryRow>> history(const HistoryQuery& query);

  // Points baseline `name` at `run_id`, replacing where it pointed before. Errors for an
  // empty name or a run id that does not exist.
  util::Result<void> set_baseline(const std::string& name, int64_t run_id);
  // The run id of baseline `name`; an error listing the known baselines if there is none.
  util::Result<int64_t> baseline(const std::string& name);
  // All baselines, by name.
  util::Result<std::vector<Baseline>> list_baselines();

 private:
  struct Impl;
  explicit RunStore(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace fathom::history
