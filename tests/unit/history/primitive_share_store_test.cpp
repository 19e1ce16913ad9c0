// The history keeps each operation's primitive share (history/run_store.h,
// model/run_result_json.h), also in a database written before shares existed.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>

#include "../report/run_fixture.h"
#include "model/run_result_json.h"
#include "history/run_store.h"

namespace fathom::history {
namespace {

namespace fs = std::filesystem;

class PrimitiveShareStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fathom-share-store-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static model::RunResult run_with_share() {
    model::RunResult run = report::fixture::make_run(2);
    run.images[0].operations[0].primitive_share = {{"SHA-2", 0.9375}, {"bignum", 0.0}};
    return run;
  }

  fs::path dir_;
};

TEST_F(PrimitiveShareStoreTest, RoundTrip) {
  auto store = RunStore::open(dir_ / "h.sqlite");
  ASSERT_TRUE(store.has_value()) << store.error().message;
  auto id = store->store(run_with_share(), RunContext{});
  ASSERT_TRUE(id.has_value()) << id.error().message;
  auto loaded = store->load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->images[0].operations[0].primitive_share,
            (std::map<std::string, double>{{"SHA-2", 0.9375}, {"bignum", 0.0}}));
  EXPECT_TRUE(loaded->images[1].operations[0].primitive_share.empty());
}

// A database whose operations table predates the column gets it on open; its old rows read
// back with no share.
TEST_F(PrimitiveShareStoreTest, OlderDatabaseGainsTheColumn) {
  const fs::path db = dir_ / "old.sqlite";
  int64_t old_id = 0;
  {
    auto store = RunStore::open(db);
    ASSERT_TRUE(store.has_value()) << store.error().message;
    auto id = store->store(report::fixture::make_run(1), RunContext{});
    ASSERT_TRUE(id.has_value()) << id.error().message;
    old_id = *id;
  }
  sqlite3* raw = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &raw), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(raw, "ALTER TABLE operations DROP COLUMN primitive_share_json", nullptr,
                         nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(raw);
  sqlite3_close(raw);

  auto store = RunStore::open(db);
  ASSERT_TRUE(store.has_value()) << store.error().message;
  auto old_run = store->load(old_id);
  ASSERT_TRUE(old_run.has_value()) << old_run.error().message;
  EXPECT_TRUE(old_run->images[0].operations[0].primitive_share.empty());
  auto id = store->store(run_with_share(), RunContext{});
  ASSERT_TRUE(id.has_value()) << id.error().message;
  auto loaded = store->load(*id);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().message;
  EXPECT_EQ(loaded->images[0].operations[0].primitive_share.at("SHA-2"), 0.9375);
}

TEST(PrimitiveShareJson, RefusesWhatIsNotAFraction) {
  auto read = [](const char* text) {
    return model::primitive_share_from_json(model::ResultJson::parse(text),
                                            "stored primitive share");
  };
  EXPECT_TRUE(read("{}").has_value());
  EXPECT_TRUE(read("null")->empty());
  EXPECT_EQ(read(R"({"AES": 0.25})")->at("AES"), 0.25);
  for (const char* bad : {"[]", "{\"AES\": 1.5}", "{\"AES\": -0.1}", "{\"AES\": \"x\"}"}) {
    auto r = read(bad);
    EXPECT_FALSE(r.has_value()) << bad;
  }
  auto r = read("{\"AES\": 2}");
  ASSERT_FALSE(r.has_value());
  EXPECT_EQ(r.error().message, "stored primitive share.AES: expected a fraction between 0 and 1");
}

}  // namespace
}  // namespace fathom::history
