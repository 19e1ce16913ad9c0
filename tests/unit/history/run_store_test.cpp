#include "history/run_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <thread>

#include "../model/full_run_fixture.h"
#include "../report/run_fixture.h"
#include "model/run_result_json.h"
#include "util/source_dir.h"

namespace fathom::history {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class RunStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fathom-history-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunStore open_store(const fs::path& db) {
    auto store = RunStore::open(db);
    if (!store) ADD_FAILURE() << store.error().message;
    return std::move(*store);
  }

  static std::string bytes_of(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  static RunContext context(std::string name = "") {
    RunContext c;
    c.name = std::move(name);
    c.git_revision = "0123456789abcdef0123456789abcdef01234567";
    c.git_dirty = true;
    c.timestamp_utc = "2024-05-01T12:00:00Z";
    return c;
  }

  fs::path dir_;
};

TEST_F(RunStoreTest, CreatesParentDirectoriesAndMarksTheFile) {
  const fs::path db = dir_ / "a" / "b" / "history.sqlite";
  { auto store = open_store(db); }
  ASSERT_TRUE(fs::exists(db));
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open_v2(db.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA application_id", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(stmt, 0), kApplicationId);
  sqlite3_finalize(stmt);
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA journal_mode", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
  // Reopening our own file works.
  auto again = RunStore::open(db);
  EXPECT_TRUE(again.has_value()) << again.error().message;
}

TEST_F(RunStoreTest, RoundTripKeepsWhatCompareNeeds) {
  auto store = open_store(dir_ / "h.sqlite");
  const auto run = report::fixture::make_run(3);
  auto id = store.store(run, context("nightly"));
  ASSERT_TRUE(id.has_value()) << id.error().message;
  EXPECT_EQ(*id, 1);

  auto loaded = store.load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->suite, "default");
  ASSERT_EQ(loaded->images.size(), 3u);
  const auto& base = loaded->images[0];
  EXPECT_EQ(base.configuration, "mbedtls");
  EXPECT_EQ(base.board, "sim-m33");
  EXPECT_TRUE(base.completed);
  EXPECT_EQ(base.provenance.clock_hz, 128'000'000u);
  EXPECT_EQ(base.provenance.source_sha256.at("mbedtls"), std::string(64, 'a'));
  EXPECT_EQ(base.provenance.cflags, std::vector<std::string>{"-O2"});
  EXPECT_EQ(base.provenance.runs, 3u);
  EXPECT_EQ(base.provenance.libc, "newlib-nano");
  ASSERT_TRUE(base.size.has_value());
  EXPECT_EQ(base.size->flash_bytes, 100000u);
  ASSERT_EQ(base.operations.size(), 2u);
  const auto& sha = base.operations[0];
  EXPECT_EQ(sha.operation, "sha256_1k");
  EXPECT_EQ(sha.kat, model::KatStatus::kPassed);
  EXPECT_EQ(sha.cycle_samples, (std::vector<uint64_t>{1280, 1280, 1290}));
  EXPECT_EQ(sha.instruction_samples, (std::vector<uint64_t>{640, 640, 645}));
  ASSERT_TRUE(sha.cycles.has_value());
  EXPECT_EQ(sha.cycles->median, 1280.0);
  EXPECT_EQ(sha.cycles->max, 1290u);
  EXPECT_EQ(sha.peak_stack_bytes, 1024u);
  EXPECT_EQ(sha.heap_peak_bytes, 2048u);
  EXPECT_EQ(sha.allocations, 12u);
  EXPECT_TRUE(sha.has_timing());

  // The failed KAT keeps its status and vectors, and none of its poisoned figures.
  const auto& failed = loaded->images[1].operations[1];
  EXPECT_EQ(loaded->images[1].provenance.config_undefines,
            std::vector<std::string>{"MBEDTLS_ECP_NIST_OPTIM"});
  EXPECT_EQ(failed.kat, model::KatStatus::kFailed);
  ASSERT_EQ(failed.kat_vectors.size(), 2u);
  EXPECT_EQ(failed.kat_vectors[0].name, "rfc6979-a.2.5-sha256");
  EXPECT_FALSE(failed.kat_vectors[0].passed);
  EXPECT_EQ(failed.error, "known-answer test failed");
  EXPECT_TRUE(failed.cycle_samples.empty());
  EXPECT_FALSE(failed.cycles.has_value());
  EXPECT_FALSE(failed.peak_stack_bytes.has_value());

  const auto& broken = loaded->images[2];
  EXPECT_FALSE(broken.completed);
  ASSERT_TRUE(broken.fault.has_value());
  EXPECT_EQ(broken.fault->kind, "hardfault");
  EXPECT_EQ(broken.fault->pc, 0x1234u);
  EXPECT_EQ(broken.error, run.images[2].error);

  auto summary = store.summary(*id);
  ASSERT_TRUE(summary.has_value());
  EXPECT_EQ(summary->name, "nightly");
  EXPECT_EQ(summary->git_revision, context().git_revision);
  EXPECT_TRUE(summary->git_dirty);
  EXPECT_EQ(summary->timestamp_utc, "2024-05-01T12:00:00Z");
  EXPECT_EQ(summary->images, 3);
}

// Every field of the model comes back (model/run_result_json.h): the console log, primitive
// calls, the simulator's memory figures, heap start, distinct inputs, object sizes, not-timed
// reasons, the provenance's isolation and run order, fairness and workflows.
TEST_F(RunStoreTest, KeepsTheWholeRun) {
  auto store = open_store(dir_ / "h.sqlite");
  const auto run = model::fixture::full_run();
  auto id = store.store(run, context());
  ASSERT_TRUE(id.has_value()) << id.error().message;
  auto loaded = store.load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(model::dump_json(model::to_json(*loaded), 2), model::dump_json(model::to_json(run), 2));
  EXPECT_EQ(loaded->images[0].operations[0].primitive_calls.at("SHA-2"), 17.5);
  EXPECT_EQ(loaded->workflows.size(), 2u);
  // The query columns hold the same figures.
  HistoryQuery query;
  query.operations = {"sha256_1k"};
  query.metric = Metric::kHeap;
  auto rows = store.history(query);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].value, 2048.0);
  EXPECT_FALSE((*rows)[1].value.has_value());  // its KAT failed
}

// A database an older fathom wrote (tests/fixtures/previous_results/history.sql, made by its
// generate.cpp from revision ad1dc5a) opens, gains the whole-run column, and its run reads back
// from the per-part columns with everything those kept; a run stored now keeps everything.
// The previous fathom's database (tests/fixtures/previous_results/history.sql) at `db`.
void write_previous_fathom_database(const fs::path& db) {
  std::ifstream in(std::string(fathom::util::source_dir()) +
                   "/tests/fixtures/previous_results/history.sql");
  ASSERT_TRUE(in.good());
  const std::string sql{std::istreambuf_iterator<char>(in), {}};
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
      << sqlite3_errmsg(raw);
  // .dump does not keep the application id.
  ASSERT_EQ(sqlite3_exec(raw, "PRAGMA application_id = 1179928653", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(raw);
}

// A reader of a database that lacks the columns added since schema 1 still reads it (the open
// adds them, as for a writer).
TEST_F(RunStoreTest, ReadAccessOpensADatabaseOfThePreviousFathom) {
  const fs::path db = dir_ / "old.sqlite";
  write_previous_fathom_database(db);
  auto store = RunStore::open(db, RunStore::Access::kRead);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  auto old_run = store->load(1);
  ASSERT_TRUE(old_run.has_value()) << old_run.error().message;
  EXPECT_EQ(old_run->images.size(), 2u);
}

TEST_F(RunStoreTest, OpensADatabaseOfThePreviousFathom) {
  const fs::path db = dir_ / "old.sqlite";
  write_previous_fathom_database(db);
  auto store = open_store(db);
  auto old_run = store.load(1);
  ASSERT_TRUE(old_run.has_value()) << old_run.error().message;
  const auto want = model::fixture::full_run();
  ASSERT_EQ(old_run->images.size(), 2u);
  const auto& img = old_run->images[0];
  EXPECT_EQ(model::dump_json(model::to_json(img.provenance)),
            model::dump_json(model::to_json(want.images[0].provenance)));
  EXPECT_EQ(img.total_cycles, want.images[0].total_cycles);
  const auto& op = img.operations[0];
  EXPECT_EQ(op.cycle_samples, want.images[0].operations[0].cycle_samples);
  EXPECT_EQ(op.cycles->median, want.images[0].operations[0].cycles->median);
  EXPECT_EQ(op.heap_peak_bytes, 2048u);
  EXPECT_EQ(op.primitive_share, want.images[0].operations[0].primitive_share);
  EXPECT_EQ(img.operations[1].kat, model::KatStatus::kNotRun);
  // What the previous fathom did not store is not there.
  EXPECT_TRUE(op.primitive_calls.empty());
  EXPECT_FALSE(op.heap_start_bytes.has_value());
  EXPECT_TRUE(img.console_log.empty());
  EXPECT_TRUE(old_run->workflows.empty());
  const auto& bad = old_run->images[1];
  ASSERT_TRUE(bad.fault.has_value());
  EXPECT_EQ(bad.fault->function, "");  // stored as "" then, null now
  EXPECT_EQ(bad.fault->pc, 0xFFFFFFFFu);
  EXPECT_EQ(bad.operations[0].kat, model::KatStatus::kFailed);
  EXPECT_EQ(bad.operations[0].kat_vectors.size(), 2u);

  auto id = store.store(want, context());
  ASSERT_TRUE(id.has_value()) << id.error().message;
  EXPECT_EQ(*id, 2);
  auto loaded = store.load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(model::dump_json(model::to_json(*loaded)), model::dump_json(model::to_json(want)));
  HistoryQuery query;
  query.operations = {"sha256_1k"};
  auto rows = store.history(query);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->size(), 4u);  // two images in each run
  EXPECT_EQ((*rows)[0].value, 1281.0);
  EXPECT_EQ((*rows)[2].value, 1281.0);
}

// A stored run that no longer reads (an edited database) is an error naming the JSON path.
TEST_F(RunStoreTest, AnEditedStoredRunIsAnErrorNamingThePath) {
  const fs::path db = dir_ / "h.sqlite";
  {
    auto store = open_store(db);
    ASSERT_TRUE(store.store(model::fixture::full_run(), context()).has_value());
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw,
                         "UPDATE runs SET result_json = json_set(result_json, "
                         "'$.images[0].operations[0].kat.status', 'maybe')",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(raw);
  sqlite3_close(raw);
  auto store = open_store(db);
  auto loaded = store.load(1);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("run 1: stored results: images[0].operations[0].kat."
                                        "status: unknown KAT status 'maybe'"),
            std::string::npos)
      << loaded.error().message;
}

TEST_F(RunStoreTest, LoadOfAMissingRunNamesIt) {
  auto store = open_store(dir_ / "h.sqlite");
  auto loaded = store.load(42);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_NE(loaded.error().message.find("no run 42"), std::string::npos);
  auto latest = store.latest();
  ASSERT_FALSE(latest.has_value());
  EXPECT_NE(latest.error().message.find("holds no run"), std::string::npos);
}

TEST_F(RunStoreTest, HistoryFollowsTheMetricAcrossRuns) {
  auto store = open_store(dir_ / "h.sqlite");
  auto run = report::fixture::make_run(2);
  ASSERT_TRUE(store.store(run, context()).has_value());
  run.images[0].operations[0].cycle_samples = {1100, 1100, 1100};
  run.images[0].operations[0].cycles = model::summarize(run.images[0].operations[0].cycle_samples);
  ASSERT_TRUE(store.store(run, context()).has_value());

  HistoryQuery query;
  query.operations = {"sha256_1k"};
  query.configurations = {"mbedtls"};
  auto rows = store.history(query);
  ASSERT_TRUE(rows.has_value()) << rows.error().message;
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].run_id, 1);
  EXPECT_EQ((*rows)[0].value, 1280.0);
  EXPECT_EQ((*rows)[1].run_id, 2);
  EXPECT_EQ((*rows)[1].value, 1100.0);
  EXPECT_EQ((*rows)[1].board, "sim-m33");

  query.configurations.clear();
  query.operations = {"ecdsa_p256_sign"};
  query.metric = Metric::kStack;
  rows = store.history(query);
  ASSERT_TRUE(rows.has_value());
  ASSERT_EQ(rows->size(), 4u);  // 2 runs × 2 configurations
  EXPECT_EQ((*rows)[0].value, 1024.0);
  EXPECT_FALSE((*rows)[1].value.has_value());  // its KAT failed: no figure

  query.boards = {"sim-m4"};
  rows = store.history(query);
  ASSERT_TRUE(rows.has_value());
  EXPECT_TRUE(rows->empty());

  EXPECT_EQ(parse_metric("heap").value(), Metric::kHeap);
  EXPECT_FALSE(parse_metric("joules").has_value());
}

TEST_F(RunStoreTest, BaselinesAndFind) {
  auto store = open_store(dir_ / "h.sqlite");
  const auto run = report::fixture::make_run(1);
  ASSERT_EQ(store.store(run, context("first")).value(), 1);
  ASSERT_EQ(store.store(run, context("second")).value(), 2);
  ASSERT_EQ(store.store(run, context("first")).value(), 3);

  auto missing = store.baseline("main");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("no baseline is set"), std::string::npos);

  ASSERT_TRUE(store.set_baseline("main", 1).has_value());
  ASSERT_TRUE(store.set_baseline("release", 2).has_value());
  EXPECT_EQ(store.baseline("main").value(), 1);
  ASSERT_TRUE(store.set_baseline("main", 2).has_value());  // replaces
  EXPECT_EQ(store.baseline("main").value(), 2);
  auto bad = store.set_baseline("main", 99);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("no run 99"), std::string::npos);
  EXPECT_EQ(store.baseline("main").value(), 2);

  auto unknown = store.baseline("nope");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message.find("known baselines: main, release"), std::string::npos)
      << unknown.error().message;
  auto all = store.list_baselines();
  ASSERT_TRUE(all.has_value());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].name, "main");

  EXPECT_EQ(store.find("1").value(), 1);
  EXPECT_EQ(store.find("latest").value(), 3);
  EXPECT_EQ(store.find("main").value(), 2);
  EXPECT_EQ(store.find("first").value(), 3);  // newest run with that name
  EXPECT_FALSE(store.find("7").has_value());
  auto nothing = store.find("nothing");
  ASSERT_FALSE(nothing.has_value());
  EXPECT_NE(nothing.error().message.find("known baselines: main, release"), std::string::npos);

  auto runs = store.list_runs();
  ASSERT_TRUE(runs.has_value());
  ASSERT_EQ(runs->size(), 3u);
  EXPECT_EQ((*runs)[1].name, "second");
}

TEST_F(RunStoreTest, GarbageFileIsRefusedAndUntouched) {
  const fs::path db = dir_ / "notes.txt";
  { std::ofstream(db) << "these are my notes, not a database\n"; }
  const std::string before = bytes_of(db);
  auto store = RunStore::open(db);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().message.find(db.string()), std::string::npos);
  EXPECT_NE(store.error().message.find("not a SQLite database"), std::string::npos);
  EXPECT_NE(store.error().message.find("--db"), std::string::npos);
  EXPECT_EQ(bytes_of(db), before);
}

TEST_F(RunStoreTest, DamagedFileIsRefusedAndUntouched) {
  const fs::path db = dir_ / "damaged.sqlite";
  {
    auto store = open_store(db);
    ASSERT_TRUE(store.store(report::fixture::make_run(1), context()).has_value());
  }
  // Keep SQLite's header, overwrite the rest of the first page and beyond.
  std::string bytes = bytes_of(db);
  ASSERT_GT(bytes.size(), 200u);
  for (size_t i = 16; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
  { std::ofstream(db, std::ios::binary | std::ios::trunc) << bytes; }
  auto store = RunStore::open(db);
  ASSERT_FALSE(store.has_value());
  EXPECT_NE(store.error().message.find(db.string()), std::string::npos);
  EXPECT_EQ(bytes_of(db), bytes);
}

TEST_F(RunStoreTest, ForeignSqliteDatabaseIsRefusedAndUntouched) {
  for (const char* setup : {"CREATE TABLE contacts(name TEXT); INSERT INTO contacts VALUES ('x')",
                            "PRAGMA application_id = 1234; CREATE TABLE t(x)"}) {
    const fs::path db = dir_ / "other.sqlite";
    fs::remove(db);
    sqlite3* raw = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(raw, setup, nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(raw);
    const std::string before = bytes_of(db);
    auto store = RunStore::open(db);
    ASSERT_FALSE(store.has_value()) << setup;
    EXPECT_NE(store.error().message.find(db.string()), std::string::npos);
    EXPECT_NE(store.error().message.find("another application"), std::string::npos)
        << store.error().message;
    EXPECT_EQ(bytes_of(db), before) << setup;
    EXPECT_FALSE(fs::exists(db.string() + "-wal"));
  }
}

// A command that only reads never creates a database: a missing path (nor its directory) or an
// empty file stays as it was, and the error says no run was stored there.
TEST_F(RunStoreTest, ReadersDoNotCreateAMissingOrEmptyDatabase) {
  const fs::path missing = dir_ / "nowhere" / "h.sqlite";
  for (auto access : {RunStore::Access::kRead, RunStore::Access::kReadWrite}) {
    auto store = RunStore::open(missing, access);
    ASSERT_FALSE(store.has_value());
    EXPECT_TRUE(store.error().is_usage);
    EXPECT_EQ(store.error().message,
              "history database '" + missing.string() +
                  "' does not exist: no run has been stored there (fathom run stores each run "
                  "in it); check --db or FATHOM_HISTORY_DB");
  }
  EXPECT_FALSE(fs::exists(missing.parent_path()));

  const fs::path empty = dir_ / "empty.sqlite";
  { std::ofstream create(empty); }
  auto store = RunStore::open(empty, RunStore::Access::kRead);
  ASSERT_FALSE(store.has_value());
  EXPECT_TRUE(store.error().is_usage);
  EXPECT_NE(store.error().message.find("' is empty: no run has been stored there"),
            std::string::npos)
      << store.error().message;
  EXPECT_EQ(fs::file_size(empty), 0u);
}

// A reader's connection is read-only: it reads what was stored and cannot store.
TEST_F(RunStoreTest, ReadAccessIsReadOnly) {
  const fs::path db = dir_ / "h.sqlite";
  {
    auto writer = open_store(db);
    ASSERT_TRUE(writer.store(report::fixture::make_run(1), context("first")).has_value());
  }
  auto reader = RunStore::open(db, RunStore::Access::kRead);
  ASSERT_TRUE(reader.has_value()) << reader.error().message;
  auto id = reader->find("first");
  ASSERT_TRUE(id.has_value()) << id.error().message;
  EXPECT_TRUE(reader->load(*id).has_value());
  auto stored = reader->store(report::fixture::make_run(1), context());
  ASSERT_FALSE(stored.has_value());
  EXPECT_NE(stored.error().message.find("readonly"), std::string::npos) << stored.error().message;
}

TEST_F(RunStoreTest, EmptyFileBecomesAHistory) {
  const fs::path db = dir_ / "empty.sqlite";
  { std::ofstream create(db); }
  auto store = RunStore::open(db);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  EXPECT_TRUE(store->store(report::fixture::make_run(1), context()).has_value());
}

TEST_F(RunStoreTest, ConcurrentWritersLoseNothing) {
  const fs::path db = dir_ / "shared.sqlite";
  constexpr int kWriters = 4;
  constexpr int kRunsEach = 10;
  const auto run = report::fixture::make_run(2);
  std::vector<std::string> failures(kWriters);
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      // Each writer opens the (possibly not yet existing) file itself.
      auto store = RunStore::open(db);
      if (!store) {
        failures[w] = store.error().message;
        return;
      }
      for (int r = 0; r < kRunsEach; ++r) {
        auto id = store->store(run, context("writer-" + std::to_string(w)));
        if (!id) {
          failures[w] = id.error().message;
          return;
        }
      }
    });
  }
  for (auto& t : writers) t.join();
  for (const auto& f : failures) EXPECT_EQ(f, "");

  auto store = open_store(db);
  auto runs = store.list_runs();
  ASSERT_TRUE(runs.has_value());
  EXPECT_EQ(runs->size(), static_cast<size_t>(kWriters * kRunsEach));
  for (int w = 0; w < kWriters; ++w) {
    int count = 0;
    for (const auto& r : *runs) count += r.name == "writer-" + std::to_string(w);
    EXPECT_EQ(count, kRunsEach) << w;
  }
  auto loaded = store.load(runs->back().id);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(loaded->images.size(), 2u);

  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(raw, "PRAGMA integrity_check", -1, &stmt, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)), "ok");
  sqlite3_finalize(stmt);
  sqlite3_close(raw);
}

TEST(DefaultHistoryPath, EnvironmentThenCacheDir) {
  auto env = [](std::map<std::string, std::string> values) {
    return [values](const std::string& name) -> std::optional<std::string> {
      auto it = values.find(name);
      if (it == values.end()) return std::nullopt;
      return it->second;
    };
  };
  EXPECT_EQ(
      default_history_path(env({{"FATHOM_HISTORY_DB", "/x/h.db"}, {"FATHOM_CACHE_DIR", "/c"}}))
          .value(),
      fs::path("/x/h.db"));
  EXPECT_EQ(default_history_path(env({{"FATHOM_CACHE_DIR", "/c"}})).value(),
            fs::path("/c/history.sqlite"));
  EXPECT_FALSE(default_history_path(env({})).has_value());
}

TEST(CurrentRunContext, OutsideAGitRepositoryHasNoRevision) {
  const auto context = current_run_context("n", fs::path("/"));
  EXPECT_EQ(context.name, "n");
  EXPECT_FALSE(context.git_revision.has_value());
  EXPECT_FALSE(context.git_dirty);
}

}  // namespace
}  // namespace fathom::history
