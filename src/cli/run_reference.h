#pragma once
// A run named on the command line: a results file (the JSON `fathom run --format json` writes)
// or a stored run of the history (a run id, a run --name, `latest`, a baseline name or
// `baseline:NAME`). `fathom compare` and `fathom report` take either.
#include <optional>
#include <string>

#include "history/run_store.h"
#include "model/run_result.h"

namespace fathom::cli {

// The history database, opened read-only on first use: naming two results files needs none.
class LazyStore {
 public:
  explicit LazyStore(std::string db) : db_(std::move(db)) {}
  history::RunStore& get();

 private:
  std::string db_;
  std::optional<history::RunStore> store_;
};

struct RunReference {
  std::optional<history::RunSummary> summary;  // set for a stored run
  std::string file;                            // set for a results file
  model::RunResult run;
  // "run 3 'nightly' (2024-05-01T12:00:00Z, git 0123abcd4567)" or "file a.json (suite default)"
  std::string description;
};

// `text` is a results file (compare::names_result_file), a run id, a run name, "latest", a
// baseline name, or "baseline:NAME". Throws util::FatalError (exit 2 for what the user typed,
// exit 1 for a file that cannot be read).
RunReference load_run_reference(LazyStore& store, const std::string& text);

}  // namespace fathom::cli
