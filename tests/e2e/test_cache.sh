#!/bin/bash
# The build and result caches with parallel runs: a second identical run rebuilds nothing and
# reuses the measured results (and says so), a failed image is never reused, a copy of the tree
# elsewhere reuses the same images, --fresh measures again, and the results are the same
# whatever -j.
. "$(dirname "$0")/lib.sh"
need_toolchain
SUITE="$SRC/tests/e2e/suites/cache.toml"

# First run measures (--fresh: the cache may hold results from an earlier test run).
expect_exit 1 "$FATHOM" run "$SUITE" -j 2 --fresh --no-history --format json
cp "$WORK/out" "$WORK/first.json"
expect_err "0 results reused"
check_json "$WORK/first.json" '
assert [i["configuration"] for i in d["images"]] == ["mbedtls", "mbedtls-broken-kat"], d["images"]
ok, broken = d["images"]
assert ok["completed"] and ok["error"] is None, ok
assert ok["provenance"]["reused_from"] is None, ok["provenance"]
assert ok["operations"][0]["kat"]["status"] == "passed"
assert len(ok["operations"][0]["samples"]["cycles"]) == 2
# One failing image does not hide the other, with -j 2.
assert broken["operations"][0]["kat"]["status"] == "failed", broken
assert broken["provenance"]["reused_from"] is None
'

# Second run: both images come from the build cache (no compiler ran), the good image's
# results from the result cache, marked with when they were measured; the failed one runs again.
expect_exit 1 "$FATHOM" run "$SUITE" -j 2 --no-history --format json
cp "$WORK/out" "$WORK/second.json"
expect_err "2 images: 2 builds reused from the build cache, 1 result reused from the result cache"
python3 - "$WORK/first.json" "$WORK/second.json" <<'PY' || fail "second run differs or is not marked reused"
import json, re, sys
first, second = (json.load(open(p)) for p in sys.argv[1:3])
ok1, ok2 = first["images"][0], second["images"][0]
assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", ok2["provenance"]["reused_from"] or ""), ok2
assert ok2["operations"] == ok1["operations"], "reused results differ from the measured ones"
assert ok2["provenance"]["elf_sha256"] == ok1["provenance"]["elf_sha256"]
assert second["images"][1]["provenance"]["reused_from"] is None, "a failed image was reused"
assert second["images"][1]["operations"][0]["kat"]["status"] == "failed"
PY

# Another checkout of the same tree (a clean clone elsewhere) reuses those images and results:
# where the tree lives reaches neither an image's bytes (the compiler maps it out of the DWARF)
# nor its build key (build/build_key.h), even where the path has characters that ninja escapes
# (a CI checkout under "/ci/run:2/..." once missed every image).
CLONE="$WORK/ci:run 2/clone"
mkdir -p "$CLONE"
cp -r "$SRC/firmware" "$SRC/suites" "$SRC/sources.lock" "$CLONE/"
expect_exit 1 env FATHOM_HOME="$CLONE" "$FATHOM" run "$SUITE" -j 1 --no-history --format json
cp "$WORK/out" "$WORK/clone.json"
expect_err "2 images: 2 builds reused from the build cache, 1 result reused from the result cache"
python3 - "$WORK/first.json" "$WORK/clone.json" <<'PY' || fail "the clone's images differ"
import json, sys
first, clone = (json.load(open(p)) for p in sys.argv[1:3])
for a, b in zip(first["images"], clone["images"]):
    assert a["provenance"]["elf_sha256"] == b["provenance"]["elf_sha256"], (a["configuration"])
assert clone["images"][0]["operations"] == first["images"][0]["operations"]
PY
CACHE="${FATHOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fathom}"
# A checkout whose path sorts before the build cache's while another's sorts after it lists the
# same files (a CI checkout under /home and a clone under /tmp once missed every image). Paths
# sort by components: ".fathom-test-clone.*" beside the cache comes before the cache itself.
BESIDE="$(mktemp -d "$(dirname "$CACHE")/.fathom-test-clone.XXXXXX")"
trap 'rm -rf "$WORK" "$BESIDE"' EXIT
python3 -c 'import pathlib, sys; a, b = map(pathlib.PurePosixPath, sys.argv[1:]); assert a < b' \
  "$BESIDE" "$CACHE/builds" || fail "$BESIDE does not sort before $CACHE/builds"
cp -r "$SRC/firmware" "$SRC/suites" "$SRC/sources.lock" "$BESIDE/"
expect_exit 1 env FATHOM_HOME="$BESIDE" "$FATHOM" run "$SUITE" -j 1 --no-history --format json
expect_err "2 images: 2 builds reused from the build cache, 1 result reused from the result cache"
rm -rf "$BESIDE"
# The image itself names no directory of the tree: its DWARF says "firmware/harness/...".
ELF_SHA="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["images"][0]["provenance"]["elf_sha256"])' "$WORK/first.json")"
ELF=""
for f in "$CACHE"/builds/sim-m33/mbedtls-*/image.elf; do
  [ "$(sha256sum "$f" | cut -d' ' -f1)" = "$ELF_SHA" ] && ELF="$f"
done
[ -n "$ELF" ] || fail "no image with SHA-256 $ELF_SHA under $CACHE/builds/sim-m33"
grep -qF "firmware/harness/fathom_harness.c" "$ELF" || fail "$ELF does not name its harness source"
! grep -qF "$SRC/" "$ELF" || fail "$ELF contains the tree's path $SRC"
! grep -qF "$CLONE" "$ELF" || fail "$ELF contains the clone's path"

# The table says it too.
expect_exit 1 "$FATHOM" run "$SUITE" -j 1 --no-history
grep -Eq "^  mbedtls on sim-m33: measured [0-9-]+ [0-9:]+ UTC, reused$" "$WORK/out" ||
  { cat "$WORK/out"; fail "table does not say the results were reused"; }

# --fresh measures again, with the same counts (the simulator is deterministic).
expect_exit 1 "$FATHOM" run "$SUITE" -j 1 --fresh --no-history --format json
cp "$WORK/out" "$WORK/fresh.json"
expect_err "2 builds reused from the build cache, 0 results reused"
python3 - "$WORK/first.json" "$WORK/fresh.json" <<'PY' || fail "--fresh did not measure the same"
import json, sys
first, fresh = (json.load(open(p)) for p in sys.argv[1:3])
assert fresh["images"][0]["provenance"]["reused_from"] is None
assert fresh["images"][0]["operations"] == first["images"][0]["operations"]
PY
echo PASS
