#include "cli/history_database.h"

#include "cli/cli.h"
#include "util/error.h"

namespace fathom::cli {

history::RunStore open_history_or_throw(const std::string& db, history::RunStore::Access access) {
  std::filesystem::path path = db;
  if (path.empty()) {
    auto fallback = history::default_history_path();
    if (!fallback) throw util::FatalError(fallback.error().message, kExitFailure);
    path = *fallback;
  }
  auto store = history::RunStore::open(path, access);
  if (!store)
    throw util::FatalError(store.error().message,
                           store.error().is_usage ? kExitUsage : kExitFailure);
  return std::move(*store);
}

}  // namespace fathom::cli
