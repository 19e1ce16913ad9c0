#pragma once
// Unicorn 2.0.1 builds a page collection (a GLib tree, allocated and freed) on every guest store
// to RAM, and nothing reads it: this file skips it, for the one Unicorn build where that was
// verified. docs/PERFORMANCE.md "Unicorn's store path" has the facts and the figures.
#include <string>

namespace fathom::sim {

// The GNU build ID of the libunicorn.so loaded in this process, in hex; empty if none was
// found (no Unicorn loaded, or a build without the note).
const std::string& unicorn_build_id();

// Whether this process skips the per-store page collection: true only when the loaded
// libunicorn is the build the skip was verified on (unicorn_build_id()); with any other build
// the calls go to Unicorn's own functions unchanged.
bool unicorn_store_shortcut_active();

}  // namespace fathom::sim
