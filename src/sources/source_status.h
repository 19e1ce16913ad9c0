#pragma once
// What the source cache can say about one pinned source without touching the network.
#include <filesystem>
#include <string>
#include <string_view>

namespace fathom::sources {

enum class SourceState {
  kOverridden,       // the entry's env variable names an existing directory: that is used
  kOverrideMissing,  // the env variable is set but names nothing: an error to report
  kReady,            // unpacked in the cache, verified against the lock's sha256
  kDownloaded,       // the verified archive is in the cache but not unpacked (fetch is offline)
  kHashMismatch,     // what is in the cache does not match the lock's sha256
  kMissing,          // nothing in the cache; fetch will download
};

// One word or two for tables: "overridden", "ok", "missing", ...
std::string_view state_name(SourceState state);

struct SourceStatus {
  SourceState state = SourceState::kMissing;
  // The source root to use (kOverridden, kReady), the override that does not exist
  // (kOverrideMissing), or where the source root will be after a fetch (otherwise).
  std::filesystem::path path;
  // For kHashMismatch and kOverrideMissing: one line saying what is wrong. Empty otherwise.
  std::string detail;
};

}  // namespace fathom::sources
