#!/bin/sh
# End-to-end: `fathom sources` lists the pinned sources and reports a bad override clearly.
# Usage: test_sources.sh <fathom-binary> <source-dir>. Needs no network: nothing is fetched.
set -u
fathom=$1
source_dir=$2
[ -x "$fathom" ] || { echo "skip: no fathom binary at $fathom"; exit 77; }
[ -f "$source_dir/sources.lock" ] || { echo "FAIL: no $source_dir/sources.lock"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private, empty cache: the user's cache is neither read nor written.
FATHOM_CACHE_DIR=$work/cache
export FATHOM_CACHE_DIR
# Every source's override variable, from the lock itself (a source added later is covered too).
override_vars=$(sed -n 's/^env *= *"\([A-Z0-9_]*\)".*/\1/p' "$source_dir/sources.lock")
[ -n "$override_vars" ] || { echo "FAIL: no env = \"...\" in $source_dir/sources.lock"; exit 1; }
for v in $override_vars; do unset "$v"; done

fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$work/out"; echo "--- stderr"; cat "$work/err"; exit 1; }

# 1. Plain listing: exit 0, a header, and mbedtls with its version and state.
"$fathom" sources >"$work/out" 2>"$work/err" || fail "fathom sources exited $?"
grep -q '^name .*version .*status .*sha256 .*path' "$work/out" || fail "no table header"
grep -Eq '^mbedtls +3\.6\.6 +missing +8fb65fae8dca ' "$work/out" || fail "mbedtls row wrong"
grep -Eq '^wolfssl +5\.7\.2 +missing +0f2ed82e345b ' "$work/out" || fail "wolfssl row wrong"
[ ! -e "$work/cache/sources" ] || fail "listing must not fetch anything"

# 2. Override pointing at an existing tree: used as is.
mkdir -p "$work/mbedtls-3.6.6"
FATHOM_SOURCE_MBEDTLS=$work/mbedtls-3.6.6 "$fathom" sources >"$work/out" 2>"$work/err" ||
  fail "override to an existing directory exited $?"
grep -Eq "^mbedtls .* overridden .* $work/mbedtls-3.6.6\$" "$work/out" || fail "override not shown"

# 3. Override pointing at nothing: non-zero exit and a message naming the variable and path.
if FATHOM_SOURCE_MBEDTLS=/nonexistent "$fathom" sources >"$work/out" 2>"$work/err"; then
  fail "override to /nonexistent exited 0"
fi
grep -q 'FATHOM_SOURCE_MBEDTLS=/nonexistent is not a directory' "$work/err" ||
  fail "no clear message for a missing override"
# ... also with --fetch, which must not try to download instead. (The other sources are
# overridden by an existing directory, so that nothing else is downloaded either.)
mkdir -p "$work/package"
for v in $override_vars; do
  [ "$v" = FATHOM_SOURCE_MBEDTLS ] || export "$v=$work/package"
done
if FATHOM_SOURCE_MBEDTLS=/nonexistent "$fathom" sources --fetch >"$work/out" 2>"$work/err"; then
  fail "--fetch with override to /nonexistent exited 0"
fi
for v in $override_vars; do unset "$v"; done
[ ! -e "$work/cache/archives" ] || fail "--fetch downloaded despite the override"

# 4. A malformed lock file is a usage error with file:line:col.
printf 'schema_version = 1\n[[source]]\nname = "x"\n' >"$work/bad.lock"
"$fathom" sources --lock "$work/bad.lock" >"$work/out" 2>"$work/err"
rc=$?
[ "$rc" -eq 2 ] || fail "malformed lock exited $rc, expected 2"
grep -q "$work/bad.lock:2:1: .*missing key 'version'" "$work/err" || fail "no line:col in message"

echo "test_sources: all checks passed"
