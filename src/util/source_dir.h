#pragma once
// The fathom source tree this binary was built from (firmware/, suites/, sources.lock), found
// at run time: CMake writes the marker file kSourceDirMarker into the build directory, holding
// the source tree's path relative to it, and source_dir() reads it from the executable's
// directory or the nearest parent that has it. No path is compiled in, so two clones of one
// commit build byte-identical executables (the result cache keys on the executable's SHA-256,
// pipeline/result_cache.h) and a build directory moved with its tree keeps working.
// Empty when no marker is found (an executable copied out of its build tree).
namespace fathom::util {
inline constexpr const char* kSourceDirMarker = "fathom-source-dir";
const char* source_dir();
}  // namespace fathom::util
