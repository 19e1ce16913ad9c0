#pragma once
// A thin RAII layer over the SQLite C API: one connection, prepared statements, and errors as
// util::Result carrying SQLite's own message. Knows nothing about fathom's schema.
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "util/error.h"

namespace fathom::history {

class Statement;

class SqliteDatabase {
 public:
  enum class Mode { kReadOnly, kReadWrite, kReadWriteCreate };

  // Opens `path` in `mode`. SQLite reads a file lazily, so a garbage file opens fine and fails
  // at the first statement; callers validate before writing anything.
  static util::Result<SqliteDatabase> open(const std::filesystem::path& path, Mode mode);

  SqliteDatabase(SqliteDatabase&& other) noexcept;
  SqliteDatabase& operator=(SqliteDatabase&& other) noexcept;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;
  ~SqliteDatabase();

  // Runs one or more statements that return no rows of interest.
  util::Result<void> exec(const std::string& sql);
  util::Result<Statement> prepare(std::string_view sql);
  // The first column of the first row of `sql` as an integer (nullopt if there is no row).
  util::Result<std::optional<int64_t>> query_int(const std::string& sql);

  void set_busy_timeout_ms(int milliseconds);
  int64_t last_insert_rowid() const;
  // SQLite's message for the last failure on this connection.
  std::string last_error() const;
  sqlite3* handle() const { return db_; }

 private:
  explicit SqliteDatabase(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

// A prepared statement. Bind indexes start at 1, column indexes at 0 (as in SQLite).
class Statement {
 public:
  Statement(sqlite3* db, sqlite3_stmt* stmt) : db_(db), stmt_(stmt) {}
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  Statement& bind(int index, int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bind_null(int index);
  template <typename T>
  Statement& bind_optional(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind_null(index);
  }

  // Advances: true with a row, false when done; an error for any failure.
  util::Result<bool> step();
  // Runs a statement that returns no rows.
  util::Result<void> run();
  void reset();

  bool is_null(int column) const;
  int64_t column_int(int column) const;
  double column_double(int column) const;
  std::string column_text(int column) const;  // "" for NULL
  std::optional<int64_t> column_optional_int(int column) const;
  std::optional<double> column_optional_double(int column) const;

 private:
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace fathom::history
