#!/bin/bash
# The fathom executable names no directory of its checkout (source or build tree): the host
# build maps them out of every object and util::source_dir() reads the tree's location at run
# time (the build directory's fathom-source-dir file). So two clones of one commit build the
# same bytes, and the result cache, which keys on the executable's SHA-256, carries across
# them (pipeline/result_cache.h).
. "$(dirname "$0")/lib.sh"
BUILD="$(cd "$(dirname "$FATHOM")" && pwd)"
for dir in "$SRC" "$BUILD"; do
  ! grep -qaF "$dir/" "$FATHOM" || fail "$FATHOM contains the path $dir/"
done
[ -f "$BUILD/fathom-source-dir" ] || fail "no fathom-source-dir in $BUILD"
[ "$(cd "$BUILD/$(head -1 "$BUILD/fathom-source-dir")" && pwd -P)" = "$(cd "$SRC" && pwd -P)" ] ||
  fail "fathom-source-dir does not lead to $SRC"
# It finds its suites and firmware through that file.
expect_exit 0 env -u FATHOM_HOME "$FATHOM" list
grep -q "mbedtls" "$WORK/out" || { cat "$WORK/out"; fail "fathom list found no configurations"; }
# Its revision is that of the last commit to what it is built from (src/, CMakeLists.txt,
# cmake/: cmake/write_version.cmake), not HEAD, so a commit of docs or tests builds the same
# executable; and it is rewritten at every build, so it is never a stale configure's.
if git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
  want=$(git -C "$SRC" log -1 --format=%h --abbrev=12 -- src CMakeLists.txt cmake)
  expect_exit 0 "$FATHOM" --version
  grep -qF "($want)" "$WORK/out" ||
    fail "fathom --version says '$(cat "$WORK/out")', expected the revision $want of src/, CMakeLists.txt and cmake/"
fi
exit 0
