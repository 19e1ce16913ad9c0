#include "sources/source_status.h"

namespace fathom::sources {

std::string_view state_name(SourceState state) {
  switch (state) {
    case SourceState::kOverridden:
      return "overridden";
    case SourceState::kOverrideMissing:
      return "override missing";
    case SourceState::kReady:
      return "ok";
    case SourceState::kDownloaded:
      return "downloaded";
    case SourceState::kHashMismatch:
      return "hash mismatch";
    case SourceState::kMissing:
      return "missing";
  }
  return "?";
}

}  // namespace fathom::sources
