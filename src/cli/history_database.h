#pragma once
// What the subcommands that use the run history share: finding and opening the database.
#include <string>

#include "history/run_store.h"

namespace fathom::cli {

// The history database at `db`, or at history::default_history_path() when `db` is empty,
// opened for `access`: only a command that stores runs creates a missing database. Throws
// util::FatalError with the store's message when it cannot be opened: kExitUsage when nothing
// was ever stored there (a reader's missing or empty database), kExitFailure otherwise.
history::RunStore open_history_or_throw(const std::string& db, history::RunStore::Access access);

}  // namespace fathom::cli
