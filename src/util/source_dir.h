#pragma once
// The fathom source tree this binary was built from (firmware/, suites/, sources.lock): one
// generated translation unit holds the path, so that moving the tree (a second work tree, a CI
// clone) recompiles that file alone and every other object stays in the compiler cache.
namespace fathom::util {
const char* source_dir();
}  // namespace fathom::util
