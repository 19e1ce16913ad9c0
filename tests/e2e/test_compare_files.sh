#!/bin/bash
# `fathom compare` on results files written by `fathom run --format json`: two runs of the same
# image compare as unchanged (exit 0); a copy with one operation made 20 % slower trips
# --fail-above 10 (exit 3); an operation whose KAT failed in B fails a gate (exit 1); two files
# with no operation in common are a usage error (exit 2), a
# partial overlap is compared and counted; malformed files are input errors (exit 2) naming the
# file; a file and a stored run compare with each other. Also `fathom run --format pqm4-md`.
. "$(dirname "$0")/lib.sh"
need_toolchain
export FATHOM_HISTORY_DB="$WORK/default-history.sqlite"
DB="$WORK/h.sqlite"
OPS=(--config mbedtls --op sha256_64 --op hmac_sha256 --runs 2)

expect_exit 0 "$FATHOM" run "${OPS[@]}" --format json --db "$DB" --name stored
cp "$WORK/out" "$WORK/a.json"
expect_exit 0 "$FATHOM" run "${OPS[@]}" --format json --no-history
cp "$WORK/out" "$WORK/b.json"

# Two files of the same image: every figure unchanged, any gate passes.
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/b.json"
for op in sha256_64 hmac_sha256; do
  grep -q "^$op .*unchanged" "$WORK/out" || { cat "$WORK/out"; fail "no unchanged row for $op"; }
done
grep -q "^A: file $WORK/a.json (suite default)" "$WORK/out" || { cat "$WORK/out"; fail "no A line"; }
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/b.json" --format json
check_json "$WORK/out" '
assert d["a"]["file"].endswith("/a.json") and d["a"]["run"] is None, d["a"]
ops = [o for i in d["images"] for o in i["operations"]]
assert sorted(o["operation"] for o in ops) == ["hmac_sha256", "sha256_64"], ops
for o in ops:
    for m in ("cycles", "instructions", "stack"):
        assert o[m]["verdict"] == "unchanged", (o["operation"], m, o[m])
    assert o["cycles"]["ratio"] == 1.0 and o["cycles"]["a"] > 0, o
assert d["images"][0]["flash"]["verdict"] == "unchanged", d["images"][0]["flash"]
assert d["regressions"] == [], d
'
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/b.json" --fail-above 0.0001 \
  --fail-above 0.0001:stack --fail-above 0.0001:flash

# A synthetic regression: hmac_sha256 20 % slower in a copy of b.json.
python3 - "$WORK/b.json" "$WORK/slow.json" <<'PY' || fail "could not make slow.json"
import json, sys
d = json.load(open(sys.argv[1]))
for img in d["images"]:
    for op in img["operations"]:
        if op["operation"] == "hmac_sha256":
            op["samples"]["cycles"] = [int(c * 1.2) for c in op["samples"]["cycles"]]
            for k in ("median", "p99", "mean", "min", "max"):
                v = op["statistics"]["cycles"][k] * 1.2
                op["statistics"]["cycles"][k] = int(v) if k in ("min", "max") else v
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_exit 3 "$FATHOM" compare "$WORK/a.json" "$WORK/slow.json" --fail-above 10
grep -q "^hmac_sha256 .*+20.00%.*slower" "$WORK/out" || { cat "$WORK/out"; fail "no slower row"; }
grep -q "^sha256_64 .*unchanged" "$WORK/out" || { cat "$WORK/out"; fail "control op changed"; }
grep -q "1 regressions above 10% cycles" "$WORK/out" || { cat "$WORK/out"; fail "no summary"; }
expect_exit 3 "$FATHOM" compare "$WORK/a.json" "$WORK/slow.json" --fail-above 10 --format markdown
grep -q '^| `hmac_sha256` |.*| slower |' "$WORK/out" || { cat "$WORK/out"; fail "no markdown row"; }
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/slow.json" --fail-above 25
expect_exit 0 "$FATHOM" compare "$WORK/slow.json" "$WORK/a.json" --fail-above 10

# B's known-answer test of hmac_sha256 failed: B has no timing for it, so a gate cannot judge
# it and fails (exit 1, saying which), while the comparison without a gate shows the row.
python3 - "$WORK/b.json" "$WORK/kat.json" <<'PY' || fail "could not make kat.json"
import json, sys
d = json.load(open(sys.argv[1]))
for img in d["images"]:
    for op in img["operations"]:
        if op["operation"] == "hmac_sha256":
            op["kat"]["status"] = "failed"
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_exit 1 "$FATHOM" compare "$WORK/a.json" "$WORK/kat.json" --fail-above 10
expect_err "the gate cannot judge 1 operation that B has without timing"
expect_err "mbedtls on sim-m33: hmac_sha256"
grep -q "^hmac_sha256 .*no-timing" "$WORK/out" || { cat "$WORK/out"; fail "no no-timing row"; }
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/kat.json"
# ... and the other way round (B fixed what A had broken) is judged as usual.
expect_exit 0 "$FATHOM" compare "$WORK/kat.json" "$WORK/a.json" --fail-above 10

# No operation in common (each file renamed to other operations): nothing was judged, so it is a
# usage error listing what each side has, not "0 regressions" with exit 0, gate or not.
python3 - "$WORK/a.json" "$WORK/renamed.json" "$WORK/half.json" <<'PY' || fail "could not make renamed.json"
import json, sys
d = json.load(open(sys.argv[1]))
for img in d["images"]:
    for op in img["operations"]:
        op["operation"] = "renamed_" + op["operation"]
json.dump(d, open(sys.argv[2], "w"), indent=2)
d = json.load(open(sys.argv[1]))
d["images"][0]["operations"] = [o for o in d["images"][0]["operations"]
                                if o["operation"] == "hmac_sha256"]
json.dump(d, open(sys.argv[3], "w"), indent=2)
PY
for gate in "" "--fail-above 10"; do
  # shellcheck disable=SC2086
  expect_exit 2 "$FATHOM" compare "$WORK/a.json" "$WORK/renamed.json" $gate
  expect_err "nothing to compare: A and B have no operation in common"
  expect_err "A (file $WORK/a.json (suite default)): mbedtls on sim-m33: sha256_64, hmac_sha256"
  expect_err "B (file $WORK/renamed.json (suite default)): mbedtls on sim-m33: renamed_sha256_64, renamed_hmac_sha256"
  [ ! -s "$WORK/out" ] || { cat "$WORK/out"; fail "a comparison table despite nothing in common"; }
done
expect_exit 2 "$FATHOM" compare "$WORK/a.json" "$WORK/renamed.json" --format json
expect_err "no operation in common"
# Partial overlap: the shared operation is compared and judged, the summary says how many were
# not compared.
expect_exit 3 "$FATHOM" compare "$WORK/half.json" "$WORK/slow.json" --fail-above 10
grep -q "^hmac_sha256 .*+20.00%.*slower" "$WORK/out" || { cat "$WORK/out"; fail "no slower row"; }
grep -q "^sha256_64 .*missing-in-A" "$WORK/out" || { cat "$WORK/out"; fail "no missing-in-A row"; }
grep -q "^1 operation in both; 1 only in B, not compared; 1 regressions above 10% cycles$" \
  "$WORK/out" || { cat "$WORK/out"; fail "no coverage in the summary"; }
expect_exit 0 "$FATHOM" compare "$WORK/a.json" "$WORK/half.json" --format json
check_json "$WORK/out" '
assert (d["operations_in_both"], d["operations_only_in_a"], d["operations_only_in_b"]) == (1, 1, 0), d
'

# Neither file comparison touched a history database.
[ ! -e "$FATHOM_HISTORY_DB" ] || fail "comparing two files opened the default history"

# A file against a stored run, and a baseline against a file.
expect_exit 0 "$FATHOM" compare stored "$WORK/b.json" --db "$DB" --fail-above 0.0001
grep -q "^A: run 1 'stored'" "$WORK/out" || { cat "$WORK/out"; fail "no stored-run A line"; }
expect_exit 0 "$FATHOM" baseline set main stored --db "$DB"
expect_exit 3 "$FATHOM" compare --baseline main "$WORK/slow.json" --db "$DB" --fail-above 10

# Malformed files: input errors (exit 2) that name the file and the place.
printf 'not json\n' >"$WORK/bad.json"
expect_exit 2 "$FATHOM" compare "$WORK/a.json" "$WORK/bad.json"
expect_err "$WORK/bad.json: not valid JSON (byte 2)"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); d["schema_version"] = 99
json.dump(d, open(sys.argv[2], "w"))
d["schema_version"] = 1; d["images"][0]["operations"][1]["statistics"]["cycles"]["median"] = "x"
json.dump(d, open(sys.argv[3], "w"))' "$WORK/a.json" "$WORK/newer.json" "$WORK/wrong.json"
expect_exit 2 "$FATHOM" compare "$WORK/newer.json" "$WORK/a.json"
expect_err "newer.json: schema_version: 99 is newer than this fathom reads (1)"
expect_exit 2 "$FATHOM" compare "$WORK/a.json" "$WORK/wrong.json"
expect_err "wrong.json: images[0].operations[1].statistics.cycles.median: expected a finite number"
expect_exit 2 "$FATHOM" compare "$WORK/a.json" "$WORK/missing.json"
expect_err "missing.json' does not exist"
expect_exit 2 "$FATHOM" compare "$WORK/a.json"

# Benchmark tables in pqm4's layout.
expect_exit 0 "$FATHOM" run "${OPS[@]}" --format pqm4-md --no-history
for want in '## Speed' '| operation | implementation | runs | AVG [cycles] |' '## Memory' \
    '| operation | implementation | stack [bytes] | heap [bytes] |' '## Size' \
    '| implementation | flash [bytes] | RAM [bytes] |'; do
  grep -qF -- "$want" "$WORK/out" || { cat "$WORK/out"; fail "pqm4-md lacks '$want'"; }
done
grep -qE '^\| sha256_64 \| mbedtls \| 2 \| [0-9,]+ \| [0-9,]+ \| [0-9,]+ \| [0-9,]+ \|$' \
  "$WORK/out" || { cat "$WORK/out"; fail "pqm4-md lacks a timed sha256_64 row"; }
echo PASS
