#include "history/run_store.h"

#include <fmt/core.h>
#include <fmt/format.h>

#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <thread>

#include "history/sqlite_database.h"
#include "model/run_result_json.h"
#include "model/statistics.h"
#include "util/subprocess.h"
#include "util/version.h"

namespace fathom::history {
namespace fs = std::filesystem;
namespace {

constexpr int kBusyTimeoutMs = 10'000;
constexpr std::string_view kMarker = "fathom-history";

constexpr const char* kSchema = R"sql(
CREATE TABLE fathom_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  created_utc TEXT NOT NULL,
  suite TEXT NOT NULL,
  name TEXT,
  git_revision TEXT,
  git_dirty INTEGER NOT NULL DEFAULT 0,
  tool_version TEXT NOT NULL,
  tool_git_revision TEXT NOT NULL,
  result_json TEXT);
CREATE INDEX runs_by_name ON runs(name);
CREATE TABLE images(
  id INTEGER PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  configuration TEXT NOT NULL,
  board TEXT NOT NULL,
  completed INTEGER NOT NULL,
  error TEXT NOT NULL,
  fault_json TEXT,
  provenance_json TEXT NOT NULL,
  flash_bytes INTEGER,
  ram_bytes INTEGER,
  total_cycles INTEGER NOT NULL,
  total_instructions INTEGER NOT NULL);
CREATE INDEX images_by_run ON images(run_id, position);
CREATE TABLE operations(
  id INTEGER PRIMARY KEY,
  image_id INTEGER NOT NULL REFERENCES images(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  operation TEXT NOT NULL,
  kat_status TEXT NOT NULL,
  kat_vectors_json TEXT NOT NULL,
  error TEXT NOT NULL,
  samples INTEGER NOT NULL,
  cycles_median REAL, cycles_mean REAL, cycles_p99 REAL,
  cycles_min INTEGER, cycles_max INTEGER, cycles_stddev REAL,
  instructions_median REAL,
  peak_stack_bytes INTEGER, heap_peak_bytes INTEGER, allocations INTEGER,
  cycle_samples_json TEXT NOT NULL,
  instruction_samples_json TEXT NOT NULL,
  primitive_share_json TEXT);
CREATE INDEX operations_by_image ON operations(image_id, position);
CREATE INDEX operations_by_name ON operations(operation);
CREATE TABLE baselines(
  name TEXT PRIMARY KEY,
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  set_utc TEXT NOT NULL);
)sql";

std::string now_utc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::array<char, 32> text{};
  std::strftime(text.data(), text.size(), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text.data();
}

// The message for a file open() will not touch.
util::Error refuse(const fs::path& db, const std::string& reason) {
  return util::Error{fmt::format(
      "history database '{}' {}; it was left unchanged. Pass --db with another path (or set "
      "FATHOM_HISTORY_DB), or move that file away",
      db.string(), reason)};
}

// Reads the first bytes of an existing, non-empty file and checks SQLite's header magic
// (https://www.sqlite.org/fileformat.html, section 1.3) without handing the file to SQLite.
util::Result<void> check_sqlite_header(const fs::path& db) {
  std::ifstream in(db, std::ios::binary);
  if (!in) return util::fail(fmt::format("cannot read history database '{}'", db.string()));
  std::array<char, 100> header{};
  in.read(header.data(), header.size());
  static constexpr char kMagic[16] = "SQLite format 3";  // 15 characters and a NUL
  if (in.gcount() < static_cast<std::streamsize>(header.size()) ||
      std::memcmp(header.data(), kMagic, sizeof kMagic) != 0)
    return tl::unexpected(refuse(db, "is not a SQLite database"));
  return {};
}

// A part of a run that a column holds as JSON text (runs stored before the whole run was
// kept), read by the results model's reader `read`; errors name the column ("stored fault").
template <typename Read>
auto from_column(const std::string& text, const char* what, Read read)
    -> decltype(read(std::declval<const model::ResultJson&>(), std::string_view())) {
  const auto json = model::ResultJson::parse(text, nullptr, false);
  if (json.is_discarded()) return util::fail(fmt::format("stored {} is not valid JSON", what));
  return read(json, fmt::format("stored {}", what));
}

// Nullable columns added after schema 1 shipped, which older readers ignore (no new schema
// version): table, column, what it holds (for the error message).
struct AddedColumn {
  const char* table;
  const char* column;
  const char* what;
};
constexpr AddedColumn kAddedColumns[] = {
    {"operations", "primitive_share_json", "the primitive share"},
    {"runs", "result_json", "the whole run's results"},
};

std::optional<int64_t> as_int(const std::optional<uint64_t>& value) {
  if (!value) return std::nullopt;
  return static_cast<int64_t>(*value);
}

std::optional<uint64_t> as_uint(const std::optional<int64_t>& value) {
  if (!value || *value < 0) return std::nullopt;
  return static_cast<uint64_t>(*value);
}

// Sample standard deviation (n - 1); 0 for a single sample.
double standard_deviation(const std::vector<uint64_t>& samples, double mean) {
  if (samples.size() < 2) return 0;
  double sum = 0;
  for (auto s : samples) sum += (static_cast<double>(s) - mean) * (static_cast<double>(s) - mean);
  return std::sqrt(sum / static_cast<double>(samples.size() - 1));
}

std::optional<double> finite(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

// Rolls back unless commit() succeeded.
class Transaction {
 public:
  explicit Transaction(SqliteDatabase& db) : db_(db) {}
  ~Transaction() {
    if (open_) (void)db_.exec("ROLLBACK");
  }
  util::Result<void> begin_immediate() {
    auto begun = db_.exec("BEGIN IMMEDIATE");
    open_ = begun.has_value();
    return begun;
  }
  util::Result<void> commit() {
    auto done = db_.exec("COMMIT");
    if (done) open_ = false;
    return done;
  }

 private:
  SqliteDatabase& db_;
  bool open_ = false;
};

// The fathom_meta marker of a database with fathom's application id: the application name and
// a schema version this fathom reads; a refusal naming `path` otherwise.
util::Result<void> check_marker(SqliteDatabase& db, const fs::path& path) {
  auto marker = db.prepare("SELECT key, value FROM fathom_meta");
  if (!marker)
    return tl::unexpected(refuse(path, "has fathom's id but no fathom_meta table: it is damaged"));
  std::string application, version;
  while (true) {
    auto row = marker->step();
    if (!row)
      return tl::unexpected(refuse(path, "is damaged (SQLite: " + row.error().message + ")"));
    if (!*row) break;
    if (marker->column_text(0) == "application") application = marker->column_text(1);
    if (marker->column_text(0) == "schema_version") version = marker->column_text(1);
  }
  if (application != kMarker)
    return tl::unexpected(refuse(path, "has fathom's id but no fathom marker: it is damaged"));
  int schema = 0;
  std::from_chars(version.data(), version.data() + version.size(), schema);
  if (schema > kSchemaVersion)
    return tl::unexpected(
        refuse(path, fmt::format("was written by a newer fathom (schema {}, this one reads {}); "
                                 "use that fathom",
                                 version, kSchemaVersion)));
  if (schema < 1) return tl::unexpected(refuse(path, "has no valid schema version: it is damaged"));
  return {};
}

// "history database 'X' does not exist: ..." / "... is empty: ..." for a reader (a usage error:
// the path is the caller's).
util::Error no_history(const fs::path& path, std::string_view state) {
  return util::Error{
      fmt::format("history database '{}' {}: no run has been stored there (fathom run stores "
                  "each run in it); check --db or FATHOM_HISTORY_DB",
                  path.string(), state),
      true};
}

// Opens an existing fathom history read-only (SQLITE_OPEN_READONLY). nullopt when it lacks a
// column added since schema 1 (kAddedColumns): the caller then opens it for writing, which adds
// the column, as for any older database.
util::Result<std::optional<SqliteDatabase>> open_read_only(const fs::path& path) {
  auto db = SqliteDatabase::open(path, SqliteDatabase::Mode::kReadOnly);
  if (!db)
    return util::fail(
        fmt::format("cannot open history database '{}': {}", path.string(), db.error().message));
  db->set_busy_timeout_ms(kBusyTimeoutMs);
  auto application_id = db->query_int("PRAGMA application_id");
  auto objects = db->query_int("SELECT count(*) FROM sqlite_master");
  if (!application_id || !objects)
    return tl::unexpected(refuse(
        path, "is damaged (SQLite: " +
                  (!application_id ? application_id.error() : objects.error()).message + ")"));
  const int64_t app = application_id->value_or(0);
  if (app == 0 && objects->value_or(0) == 0) return tl::unexpected(no_history(path, "is empty"));
  if (app != kApplicationId) {
    if (app != 0)
      return tl::unexpected(refuse(
          path, fmt::format("belongs to another application (SQLite application_id 0x{:08x})",
                            static_cast<uint32_t>(app))));
    return tl::unexpected(
        refuse(path, "is another application's SQLite database (it has no fathom marker)"));
  }
  if (auto marked = check_marker(*db, path); !marked) return tl::unexpected(marked.error());
  for (const auto& added : kAddedColumns) {
    auto has =
        db->query_int(fmt::format("SELECT count(*) FROM pragma_table_info('{}') WHERE name = '{}'",
                                  added.table, added.column));
    if (!has)
      return tl::unexpected(refuse(path, "is damaged (SQLite: " + has.error().message + ")"));
    if (has->value_or(0) == 0) return std::optional<SqliteDatabase>{};
  }
  return std::optional<SqliteDatabase>{std::move(*db)};
}
}  // namespace

util::Result<fs::path> default_history_path(const util::EnvLookup& env) {
  if (auto explicit_path = env("FATHOM_HISTORY_DB")) {
    std::error_code ec;
    auto absolute = fs::absolute(*explicit_path, ec);
    if (ec) return util::fail("FATHOM_HISTORY_DB='" + *explicit_path + "' is not usable");
    return absolute.lexically_normal();
  }
  auto cache = util::cache_dir(env);
  if (!cache) return tl::unexpected(cache.error());
  return *cache / "history.sqlite";
}

RunContext current_run_context(std::string name, const fs::path& directory) {
  RunContext context;
  context.name = std::move(name);
  util::ProcessOptions options;
  options.working_directory = directory;
  auto head = util::run_process({"git", "rev-parse", "HEAD"}, options);
  if (!head || head->exit_code != 0) return context;
  const std::string revision = util::last_line(head->stdout_text);
  if (revision.empty()) return context;
  context.git_revision = revision;
  auto status =
      util::run_process({"git", "status", "--porcelain", "--untracked-files=no"}, options);
  context.git_dirty = status && status->exit_code == 0 && !status->stdout_text.empty();
  return context;
}

util::Result<Metric> parse_metric(std::string_view name) {
  if (name == "cycles") return Metric::kCycles;
  if (name == "instructions") return Metric::kInstructions;
  if (name == "stack") return Metric::kStack;
  if (name == "heap") return Metric::kHeap;
  return util::fail_usage(
      fmt::format("unknown metric '{}'; use one of: cycles, instructions, stack, heap", name));
}

std::string_view metric_name(Metric metric) {
  switch (metric) {
    case Metric::kCycles:
      return "cycles";
    case Metric::kInstructions:
      return "instructions";
    case Metric::kStack:
      return "stack";
    case Metric::kHeap:
      break;
  }
  return "heap";
}

struct RunStore::Impl {
  fs::path path;
  SqliteDatabase db;

  // "history database 'x': <what>" for failures after open().
  util::Error error(const std::string& what) const {
    return util::Error{fmt::format("history database '{}': {}", path.string(), what)};
  }
  util::Error sqlite_error(const std::string& doing, const util::Error& e) const {
    return error(fmt::format("{} failed: {}", doing, e.message));
  }
  util::Result<bool> run_exists(int64_t id);
  util::Result<std::vector<Baseline>> baselines();
};

RunStore::RunStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
RunStore::RunStore(RunStore&&) noexcept = default;
RunStore& RunStore::operator=(RunStore&&) noexcept = default;
RunStore::~RunStore() = default;

const fs::path& RunStore::path() const { return impl_->path; }

util::Result<RunStore> RunStore::open(const fs::path& db_path, Access access) {
  std::error_code ec;
  const bool exists = fs::exists(db_path, ec);
  if (!exists && access != Access::kCreate)
    return tl::unexpected(no_history(db_path, "does not exist"));
  if (exists) {
    if (!fs::is_regular_file(db_path, ec)) return tl::unexpected(refuse(db_path, "is not a file"));
    const bool empty = fs::file_size(db_path, ec) == 0;
    if (empty && access != Access::kCreate) return tl::unexpected(no_history(db_path, "is empty"));
    if (!empty) {
      if (auto header = check_sqlite_header(db_path); !header)
        return tl::unexpected(header.error());
    }
    if (access == Access::kRead) {
      auto read_only = open_read_only(db_path);
      if (!read_only) return tl::unexpected(read_only.error());
      if (*read_only) {
        auto impl = std::make_unique<Impl>(Impl{db_path, std::move(**read_only)});
        return RunStore(std::move(impl));
      }
    }
  } else if (db_path.has_parent_path()) {
    fs::create_directories(db_path.parent_path(), ec);
    if (ec)
      return util::fail(fmt::format("cannot create the directory of history database '{}': {}",
                                    db_path.string(), ec.message()));
  }
  auto db = SqliteDatabase::open(
      db_path, exists ? SqliteDatabase::Mode::kReadWrite : SqliteDatabase::Mode::kReadWriteCreate);
  if (!db)
    return util::fail(
        fmt::format("cannot open history database '{}': {}", db_path.string(), db.error().message));
  db->set_busy_timeout_ms(kBusyTimeoutMs);
  if (auto fk = db->exec("PRAGMA foreign_keys = ON"); !fk)
    return tl::unexpected(
        refuse(db_path, "is not a usable SQLite database (" + fk.error().message + ")"));

  // Decide inside a write transaction, so that two processes creating the same new file
  // one after the other see each other's schema. Nothing is written unless the file is ours
  // or empty.
  {
    Transaction txn(*db);
    if (auto begun = txn.begin_immediate(); !begun)
      return tl::unexpected(
          refuse(db_path, "cannot be used as a SQLite database (" + begun.error().message + ")"));
    auto application_id = db->query_int("PRAGMA application_id");
    auto objects = db->query_int("SELECT count(*) FROM sqlite_master");
    if (!application_id || !objects)
      return tl::unexpected(refuse(
          db_path, "is damaged (SQLite: " +
                       (!application_id ? application_id.error() : objects.error()).message + ")"));
    const int64_t app = application_id->value_or(0);
    if (app == kApplicationId) {
      if (auto marked = check_marker(*db, db_path); !marked) return tl::unexpected(marked.error());
      for (const auto& added : kAddedColumns) {
        auto has = db->query_int(fmt::format(
            "SELECT count(*) FROM pragma_table_info('{}') WHERE name = '{}'", added.table,
            added.column));
        if (!has || has->value_or(0) != 0) continue;
        if (auto done = db->exec(
                fmt::format("ALTER TABLE {} ADD COLUMN {} TEXT", added.table, added.column));
            !done)
          return util::fail(fmt::format("cannot add {} to history database '{}': {}", added.what,
                                        db_path.string(), done.error().message));
      }
    } else if (app != 0) {
      return tl::unexpected(refuse(
          db_path, fmt::format("belongs to another application (SQLite application_id 0x{:08x})",
                               static_cast<uint32_t>(app))));
    } else if (**objects > 0) {
      return tl::unexpected(
          refuse(db_path, "is another application's SQLite database (it has no fathom marker)"));
    } else {
      auto created = db->exec(kSchema);
      if (created)
        created = db->exec(
            fmt::format("PRAGMA application_id = {}; INSERT INTO fathom_meta(key, value) VALUES "
                        "('application', '{}'), ('schema_version', '{}')",
                        kApplicationId, kMarker, kSchemaVersion));
      if (!created)
        return util::fail(fmt::format("cannot create history database '{}': {}", db_path.string(),
                                      created.error().message));
    }
    if (auto done = txn.commit(); !done)
      return util::fail(
          fmt::format("history database '{}': {}", db_path.string(), done.error().message));
  }

  // WAL lets readers and one writer work at once. Switching needs a moment alone with the
  // file, which a concurrent opener may hold: retry for as long as the busy timeout.
  for (int attempt = 0;; ++attempt) {
    auto mode = db->prepare("PRAGMA journal_mode = WAL");
    util::Result<bool> row = mode ? mode->step() : tl::unexpected(mode.error());
    if (row && *row && mode->column_text(0) == "wal") break;
    if (attempt * 50 >= kBusyTimeoutMs)
      return util::fail(fmt::format("history database '{}': cannot switch to WAL journal: {}",
                                    db_path.string(),
                                    row ? mode->column_text(0) : row.error().message));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }

  auto impl = std::make_unique<Impl>(Impl{db_path, std::move(*db)});
  return RunStore(std::move(impl));
}

util::Result<int64_t> RunStore::store(const model::RunResult& run, const RunContext& context) {
  auto& db = impl_->db;
  Transaction txn(db);
  if (auto begun = txn.begin_immediate(); !begun)
    return tl::unexpected(impl_->sqlite_error("storing a run", begun.error()));

  auto insert_run = db.prepare(
      "INSERT INTO runs(created_utc, suite, name, git_revision, git_dirty, tool_version, "
      "tool_git_revision, result_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  auto insert_image = db.prepare(
      "INSERT INTO images(run_id, position, configuration, board, completed, error, fault_json, "
      "provenance_json, flash_bytes, ram_bytes, total_cycles, total_instructions) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  auto insert_op = db.prepare(
      "INSERT INTO operations(image_id, position, operation, kat_status, kat_vectors_json, error, "
      "samples, cycles_median, cycles_mean, cycles_p99, cycles_min, cycles_max, cycles_stddev, "
      "instructions_median, peak_stack_bytes, heap_peak_bytes, allocations, cycle_samples_json, "
      "instruction_samples_json, primitive_share_json) "
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  for (auto* stmt : {&insert_run, &insert_image, &insert_op})
    if (!*stmt) return tl::unexpected(impl_->sqlite_error("storing a run", stmt->error()));

  insert_run->bind(1, context.timestamp_utc.empty() ? now_utc() : context.timestamp_utc)
      .bind(2, run.suite);
  if (context.name.empty())
    insert_run->bind_null(3);
  else
    insert_run->bind(3, context.name);
  insert_run->bind_optional(4, context.git_revision)
      .bind(5, int64_t{context.git_dirty})
      .bind(6, std::string_view(util::kToolVersion))
      .bind(7, std::string_view(util::kToolGitRevision))
      .bind(8, model::dump_json(model::to_json(run)));
  if (auto done = insert_run->run(); !done)
    return tl::unexpected(impl_->sqlite_error("storing a run", done.error()));
  const int64_t run_id = db.last_insert_rowid();

  for (size_t i = 0; i < run.images.size(); ++i) {
    const auto& img = run.images[i];
    auto& s = *insert_image;
    s.reset();
    s.bind(1, run_id)
        .bind(2, static_cast<int64_t>(i))
        .bind(3, img.configuration)
        .bind(4, img.board)
        .bind(5, int64_t{img.completed})
        .bind(6, img.error);
    if (img.fault)
      s.bind(7, model::dump_json(model::to_json(*img.fault)));
    else
      s.bind_null(7);
    s.bind(8, model::dump_json(model::to_json(img.provenance)));
    if (img.size) {
      s.bind(9, static_cast<int64_t>(img.size->flash_bytes))
          .bind(10, static_cast<int64_t>(img.size->ram_bytes));
    } else {
      s.bind_null(9).bind_null(10);
    }
    s.bind(11, static_cast<int64_t>(img.total_cycles))
        .bind(12, static_cast<int64_t>(img.total_instructions));
    if (auto done = s.run(); !done)
      return tl::unexpected(impl_->sqlite_error("storing an image", done.error()));
    const int64_t image_id = db.last_insert_rowid();

    for (size_t j = 0; j < img.operations.size(); ++j) {
      const auto& op = img.operations[j];
      // The JSON columns hold the parts of the run's JSON, which has no measured figures of an
      // operation whose KAT did not pass (report/writer.h); nor do the query columns.
      const model::ResultJson op_json = model::to_json(op);
      const bool measured = op.kat == model::KatStatus::kPassed;
      const auto no_samples = std::vector<uint64_t>();
      const auto& cycle_samples = measured ? op.cycle_samples : no_samples;
      const model::Statistics* cycles = measured && op.cycles ? &*op.cycles : nullptr;
      const model::Statistics* instructions =
          measured && op.instructions ? &*op.instructions : nullptr;
      auto& o = *insert_op;
      o.reset();
      o.bind(1, image_id)
          .bind(2, static_cast<int64_t>(j))
          .bind(3, op.operation)
          .bind(4, model::to_string(op.kat))
          .bind(5, model::dump_json(op_json["kat"]["vectors"]))
          .bind(6, op.error)
          .bind(7, static_cast<int64_t>(cycle_samples.size()));
      if (cycles) {
        o.bind_optional(8, finite(cycles->median))
            .bind_optional(9, finite(cycles->mean))
            .bind_optional(10, finite(cycles->p99))
            .bind(11, static_cast<int64_t>(cycles->min))
            .bind(12, static_cast<int64_t>(cycles->max))
            .bind_optional(13, finite(standard_deviation(cycle_samples, cycles->mean)));
      } else {
        for (int k = 8; k <= 13; ++k) o.bind_null(k);
      }
      if (instructions)
        o.bind_optional(14, finite(instructions->median));
      else
        o.bind_null(14);
      o.bind_optional(15, measured ? as_int(op.peak_stack_bytes) : std::nullopt)
          .bind_optional(16, measured ? as_int(op.heap_peak_bytes) : std::nullopt)
          .bind_optional(17, measured ? as_int(op.allocations) : std::nullopt)
          .bind(18, model::dump_json(op_json["samples"]["cycles"]))
          .bind(19, model::dump_json(op_json["samples"]["instructions"]))
          .bind(20, model::dump_json(op_json["primitive_share"]));
      if (auto done = o.run(); !done)
        return tl::unexpected(impl_->sqlite_error("storing an operation", done.error()));
    }
  }
  if (auto done = txn.commit(); !done)
    return tl::unexpected(impl_->sqlite_error("storing a run", done.error()));
  return run_id;
}

util::Result<bool> RunStore::Impl::run_exists(int64_t id) {
  auto stmt = db.prepare("SELECT 1 FROM runs WHERE id = ?");
  if (!stmt) return tl::unexpected(sqlite_error("looking up a run", stmt.error()));
  stmt->bind(1, id);
  auto row = stmt->step();
  if (!row) return tl::unexpected(sqlite_error("looking up a run", row.error()));
  return *row;
}

util::Result<model::RunResult> RunStore::load(int64_t id) {
  auto& db = impl_->db;
  const auto failed = [&](const util::Error& e) {
    return tl::unexpected(impl_->error(fmt::format("run {}: {}", id, e.message)));
  };
  auto run_row = db.prepare("SELECT suite, result_json FROM runs WHERE id = ?");
  if (!run_row) return failed(run_row.error());
  run_row->bind(1, id);
  auto found = run_row->step();
  if (!found) return failed(found.error());
  if (!*found)
    return tl::unexpected(
        impl_->error(fmt::format("no run {}; see `fathom history` for the stored runs", id)));
  if (!run_row->is_null(1)) {
    // The whole run, as stored since the database kept it (every field of the model).
    const auto json = model::ResultJson::parse(run_row->column_text(1), nullptr, false);
    if (json.is_discarded()) return failed(util::Error{"stored results are not valid JSON"});
    auto run = model::run_result_from_json(json);
    if (!run) return failed(util::Error{"stored results: " + run.error().message});
    return run;
  }
  // A run stored before the database kept the whole run: rebuilt from the columns (without
  // the console log, the derived analyses and the operation fields added since; statistics
  // recomputed from the samples).
  model::RunResult run;
  run.suite = run_row->column_text(0);

  auto images = db.prepare(
      "SELECT id, configuration, board, completed, error, fault_json, provenance_json, "
      "flash_bytes, ram_bytes, total_cycles, total_instructions FROM images WHERE run_id = ? "
      "ORDER BY position");
  auto ops = db.prepare(
      "SELECT operation, kat_status, kat_vectors_json, error, cycle_samples_json, "
      "instruction_samples_json, peak_stack_bytes, heap_peak_bytes, allocations, samples, "
      "cycles_median, cycles_mean, cycles_p99, cycles_min, cycles_max, instructions_median, "
      "primitive_share_json FROM operations WHERE image_id = ? ORDER BY position");
  if (!images) return failed(images.error());
  if (!ops) return failed(ops.error());
  images->bind(1, id);
  while (true) {
    auto row = images->step();
    if (!row) return failed(row.error());
    if (!*row) break;
    model::ImageResult img;
    const int64_t image_id = images->column_int(0);
    img.configuration = images->column_text(1);
    img.board = images->column_text(2);
    img.completed = images->column_int(3) != 0;
    img.error = images->column_text(4);
    if (!images->is_null(5)) {
      auto fault = from_column(images->column_text(5), "fault", model::fault_from_json);
      if (!fault) return failed(fault.error());
      img.fault = std::move(*fault);
    }
    auto provenance =
        from_column(images->column_text(6), "provenance", model::provenance_from_json);
    if (!provenance) return failed(provenance.error());
    img.provenance = std::move(*provenance);
    if (!images->is_null(7))
      img.size = model::ImageSize{static_cast<uint64_t>(images->column_int(7)),
                                  static_cast<uint64_t>(images->column_int(8))};
    img.total_cycles = static_cast<uint64_t>(images->column_int(9));
    img.total_instructions = static_cast<uint64_t>(images->column_int(10));

    ops->reset();
    ops->bind(1, image_id);
    while (true) {
      auto op_row = ops->step();
      if (!op_row) return failed(op_row.error());
      if (!*op_row) break;
      model::OperationResult op;
      op.operation = ops->column_text(0);
      const auto kat = model::parse_kat_status(ops->column_text(1));
      if (!kat)
        return failed(util::Error{
            fmt::format("stored KAT status '{}' is unknown", ops->column_text(1))});
      op.kat = *kat;
      auto vectors = from_column(ops->column_text(2), "KAT vectors", model::kat_vectors_from_json);
      if (!vectors) return failed(vectors.error());
      op.kat_vectors = std::move(*vectors);
      op.error = ops->column_text(3);
      auto cycles = from_column(ops->column_text(4), "samples", model::samples_from_json);
      auto instructions = from_column(ops->column_text(5), "samples", model::samples_from_json);
      if (!cycles) return failed(cycles.error());
      if (!instructions) return failed(instructions.error());
      op.cycle_samples = std::move(*cycles);
      op.instruction_samples = std::move(*instructions);
      op.peak_stack_bytes = as_uint(ops->column_optional_int(6));
      op.heap_peak_bytes = as_uint(ops->column_optional_int(7));
      op.allocations = as_uint(ops->column_optional_int(8));
      if (!ops->is_null(16)) {
        auto share = from_column(ops->column_text(16), "primitive share",
                                 model::primitive_share_from_json);
        if (!share) return failed(share.error());
        op.primitive_share = std::move(*share);
      }
      // Statistics come from the samples, as the pipeline made them; the stored columns are
      // for queries, and stand in only when there are no samples.
      op.cycles = model::summarize(op.cycle_samples);
      op.instructions = model::summarize(op.instruction_samples);
      if (!op.cycles && !ops->is_null(10)) {
        model::Statistics s;
        s.count = static_cast<uint64_t>(ops->column_int(9));
        s.median = ops->column_double(10);
        s.mean = ops->column_optional_double(11).value_or(s.median);
        s.p99 = ops->column_optional_double(12).value_or(s.median);
        s.min = static_cast<uint64_t>(ops->column_int(13));
        s.max = static_cast<uint64_t>(ops->column_int(14));
        op.cycles = s;
      }
      img.operations.push_back(std::move(op));
    }
    run.images.push_back(std::move(img));
  }
  return run;
}

util::Result<RunSummary> RunStore::summary(int64_t id) {
  auto runs = list_runs();
  if (!runs) return tl::unexpected(runs.error());
  for (auto& r : *runs)
    if (r.id == id) return r;
  return tl::unexpected(
      impl_->error(fmt::format("no run {}; see `fathom history` for the stored runs", id)));
}

util::Result<int64_t> RunStore::latest() {
  auto id = impl_->db.query_int("SELECT max(id) FROM runs");
  if (!id) return tl::unexpected(impl_->sqlite_error("finding the latest run", id.error()));
  if (!*id) return tl::unexpected(impl_->error("holds no run yet; `fathom run` stores one"));
  return **id;
}

util::Result<std::vector<Baseline>> RunStore::Impl::baselines() {
  auto stmt = db.prepare("SELECT name, run_id, set_utc FROM baselines ORDER BY name");
  if (!stmt) return tl::unexpected(sqlite_error("listing baselines", stmt.error()));
  std::vector<Baseline> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return tl::unexpected(sqlite_error("listing baselines", row.error()));
    if (!*row) break;
    out.push_back(Baseline{stmt->column_text(0), stmt->column_int(1), stmt->column_text(2)});
  }
  return out;
}

util::Result<std::vector<Baseline>> RunStore::list_baselines() { return impl_->baselines(); }

namespace {
std::string known_baselines(const std::vector<Baseline>& baselines) {
  if (baselines.empty()) return "no baseline is set (fathom baseline set NAME RUN)";
  std::vector<std::string> names;
  for (const auto& b : baselines) names.push_back(b.name);
  return fmt::format("known baselines: {}", fmt::join(names, ", "));
}
}  // namespace

util::Result<int64_t> RunStore::baseline(const std::string& name) {
  auto all = impl_->baselines();
  if (!all) return tl::unexpected(all.error());
  for (const auto& b : *all)
    if (b.name == name) return b.run_id;
  auto e = impl_->error(fmt::format("no baseline '{}'; {}", name, known_baselines(*all)));
  e.is_usage = true;
  return tl::unexpected(e);
}

util::Result<void> RunStore::set_baseline(const std::string& name, int64_t run_id) {
  if (name.empty()) return util::fail_usage("a baseline needs a non-empty name");
  auto exists = impl_->run_exists(run_id);
  if (!exists) return tl::unexpected(exists.error());
  if (!*exists) {
    auto e = impl_->error(
        fmt::format("no run {} to set baseline '{}' to; see `fathom history`", run_id, name));
    e.is_usage = true;
    return tl::unexpected(e);
  }
  auto stmt = impl_->db.prepare(
      "INSERT INTO baselines(name, run_id, set_utc) VALUES (?, ?, ?) "
      "ON CONFLICT(name) DO UPDATE SET run_id = excluded.run_id, set_utc = excluded.set_utc");
  if (!stmt) return tl::unexpected(impl_->sqlite_error("setting a baseline", stmt.error()));
  stmt->bind(1, name).bind(2, run_id).bind(3, now_utc());
  if (auto done = stmt->run(); !done)
    return tl::unexpected(impl_->sqlite_error("setting a baseline", done.error()));
  return {};
}

util::Result<int64_t> RunStore::find(std::string_view name_or_id) {
  const std::string text(name_or_id);
  int64_t id = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) {
    auto exists = impl_->run_exists(id);
    if (!exists) return tl::unexpected(exists.error());
    if (*exists) return id;
    auto e = impl_->error(fmt::format("no run {}; see `fathom history` for the stored runs", id));
    e.is_usage = true;
    return tl::unexpected(e);
  }
  if (text == "latest") return latest();
  auto all = impl_->baselines();
  if (!all) return tl::unexpected(all.error());
  for (const auto& b : *all)
    if (b.name == text) return b.run_id;
  auto named = impl_->db.prepare("SELECT max(id) FROM runs WHERE name = ?");
  if (!named) return tl::unexpected(impl_->sqlite_error("finding a run", named.error()));
  named->bind(1, text);
  auto row = named->step();
  if (!row) return tl::unexpected(impl_->sqlite_error("finding a run", row.error()));
  if (*row && !named->is_null(0)) return named->column_int(0);
  auto e = impl_->error(fmt::format(
      "'{}' is no run id, run name or baseline; use a run id from `fathom history`, 'latest', "
      "or a baseline; {}",
      text, known_baselines(*all)));
  e.is_usage = true;
  return tl::unexpected(e);
}

util::Result<std::vector<RunSummary>> RunStore::list_runs() {
  auto stmt = impl_->db.prepare(
      "SELECT r.id, r.created_utc, r.suite, r.name, r.git_revision, r.git_dirty, "
      "(SELECT count(*) FROM images i WHERE i.run_id = r.id) FROM runs r ORDER BY r.id");
  if (!stmt) return tl::unexpected(impl_->sqlite_error("listing runs", stmt.error()));
  std::vector<RunSummary> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return tl::unexpected(impl_->sqlite_error("listing runs", row.error()));
    if (!*row) break;
    RunSummary s;
    s.id = stmt->column_int(0);
    s.timestamp_utc = stmt->column_text(1);
    s.suite = stmt->column_text(2);
    s.name = stmt->column_text(3);
    if (!stmt->is_null(4)) s.git_revision = stmt->column_text(4);
    s.git_dirty = stmt->column_int(5) != 0;
    s.images = stmt->column_int(6);
    out.push_back(std::move(s));
  }
  return out;
}

util::Result<std::vector<HistoryRow>> RunStore::history(const HistoryQuery& query) {
  const char* column = "o.cycles_median";
  switch (query.metric) {
    case Metric::kCycles:
      break;
    case Metric::kInstructions:
      column = "o.instructions_median";
      break;
    case Metric::kStack:
      column = "o.peak_stack_bytes";
      break;
    case Metric::kHeap:
      column = "o.heap_peak_bytes";
      break;
  }
  std::string sql = fmt::format(
      "SELECT r.id, r.created_utc, r.name, r.git_revision, r.git_dirty, i.configuration, "
      "i.board, o.operation, {} FROM operations o JOIN images i ON o.image_id = i.id "
      "JOIN runs r ON i.run_id = r.id WHERE 1 = 1",
      column);
  std::vector<std::string> parameters;
  const auto filter = [&](const char* field, const std::vector<std::string>& values) {
    if (values.empty()) return;
    std::vector<std::string> marks(values.size(), "?");
    sql += fmt::format(" AND {} IN ({})", field, fmt::join(marks, ", "));
    parameters.insert(parameters.end(), values.begin(), values.end());
  };
  filter("o.operation", query.operations);
  filter("i.configuration", query.configurations);
  filter("i.board", query.boards);
  sql += " ORDER BY r.id, i.position, o.position";

  auto stmt = impl_->db.prepare(sql);
  if (!stmt) return tl::unexpected(impl_->sqlite_error("querying the history", stmt.error()));
  for (size_t k = 0; k < parameters.size(); ++k) stmt->bind(static_cast<int>(k + 1), parameters[k]);
  std::vector<HistoryRow> out;
  while (true) {
    auto row = stmt->step();
    if (!row) return tl::unexpected(impl_->sqlite_error("querying the history", row.error()));
    if (!*row) break;
    HistoryRow h;
    h.run_id = stmt->column_int(0);
    h.timestamp_utc = stmt->column_text(1);
    h.run_name = stmt->column_text(2);
    if (!stmt->is_null(3)) h.git_revision = stmt->column_text(3);
    h.git_dirty = stmt->column_int(4) != 0;
    h.configuration = stmt->column_text(5);
    h.board = stmt->column_text(6);
    h.operation = stmt->column_text(7);
    h.value = stmt->column_optional_double(8);
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace fathom::history
