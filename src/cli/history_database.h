#pragma once
// What the subcommands that use the run history share: finding and opening the database.
#include <string>

#include "history/run_store.h"

namespace fathom::cli {

// The history database at `db`, or at history::default_history_path() when `db` is empty.
// Throws util::FatalError (kExitFailure) with the store's message when it cannot be opened.
history::RunStore open_history_or_throw(const std::string& db);

}  // namespace fathom::cli
