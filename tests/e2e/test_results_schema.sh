#!/bin/bash
# CI friendliness (docs/CLI.md "Results JSON", "GitHub benchmark JSON", "Errors as JSON"):
# - the JSON that `fathom run` and `fathom merge` print, and --out DIR's results.json, validate
#   against docs/results.schema.json (a plain run, one shard, the merge of it, a run whose KAT
#   failed); a file with a key the schema does not know, or a value of the wrong type, does not;
# - `--format github-benchmark` is github-action-benchmark's customSmallerIsBetter array, with
#   what has no cycles left out and named on stderr;
# - with --format json, a failed command prints one JSON error object on stdout and its message
#   on stderr, with the exit code it has without --format json.
. "$(dirname "$0")/lib.sh"
need_toolchain
SCHEMA="$SRC/docs/results.schema.json"
CHECK="$SRC/tests/e2e/tools/check_schema.py"
# Debian's Python with python3-jsonschema (scripts/setup.sh); another python3 that has it will do.
PY=""
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c "import jsonschema" 2>/dev/null; then PY="$candidate"; break; fi
done
[ -n "$PY" ] || skip "no python3 with the jsonschema module (apt-get install python3-jsonschema)"
valid() { "$PY" "$CHECK" "$SCHEMA" "$@" || fail "not valid against the schema: $*"; }
invalid() { "$PY" "$CHECK" --invalid "$SCHEMA" "$@" || fail "the schema accepted: $*"; }
export FATHOM_HISTORY_DB="$WORK/history.sqlite"
RUN=(--config mbedtls --op sha256_1k --runs 1 --warmup 0 --no-history)

# --- results.json -----------------------------------------------------------------------------
expect_exit 0 "$FATHOM" run "${RUN[@]}" --format json
cp "$WORK/out" "$WORK/run.json"
valid "$WORK/run.json"
# --out DIR with another format: results.json beside results.github-benchmark.
expect_exit 0 "$FATHOM" run "${RUN[@]}" --format github-benchmark --out "$WORK/dir"
cp "$WORK/out" "$WORK/run.github-benchmark"
valid "$WORK/dir/results.json"
cmp -s "$WORK/run.github-benchmark" "$WORK/dir/results.github-benchmark" ||
  fail "stdout and --out's results.github-benchmark differ"
# One shard (its `shard` object) and the merge of it.
expect_exit 0 "$FATHOM" run "${RUN[@]}" --shard 1/1 --format json
cp "$WORK/out" "$WORK/shard.json"
check_json "$WORK/shard.json" 'assert d["shard"]["index"] == 1 and d["shard"]["count"] == 1'
valid "$WORK/shard.json"
expect_exit 0 "$FATHOM" merge "$WORK/shard.json" --format json --no-history
cp "$WORK/out" "$WORK/merged.json"
check_json "$WORK/merged.json" 'assert d["shard"] is None and len(d["images"]) == 1'
valid "$WORK/merged.json"
# A failed known-answer test: no figures for that operation, which the schema requires.
expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/broken_kat.toml" --runs 1 --format json \
  --no-history
cp "$WORK/out" "$WORK/broken.json"
check_json "$WORK/broken.json" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
assert ops["sha256_64"]["kat"]["status"] == "failed", ops["sha256_64"]["kat"]
'
valid "$WORK/broken.json"

# The schema rejects what the writer does not write: an unknown key (at the top, in an image's
# provenance, in an operation), a wrong type, an unknown KAT status, a missing key, "" for none.
"$PY" - "$WORK/run.json" "$WORK" <<'PY' || fail "could not make the negative cases"
import copy, json, sys
d = json.load(open(sys.argv[1]))
cases = {}
def case(name, change):
    e = copy.deepcopy(d)
    change(e)
    cases[name] = e
op = lambda e: e["images"][0]["operations"][0]
case("unknown_top", lambda e: e.update(host_seconds=1.5))
case("unknown_provenance", lambda e: e["images"][0]["provenance"].update(host="ci-runner"))
case("unknown_operation", lambda e: op(e).update(cycles_per_byte=55.9))
case("wrong_type_median", lambda e: op(e)["statistics"]["cycles"].update(median="57223"))
case("wrong_type_completed", lambda e: e["images"][0].update(completed="yes"))
case("unknown_kat_status", lambda e: op(e)["kat"].update(status="pass"))
case("missing_key", lambda e: op(e).pop("memory"))
case("empty_text_for_none", lambda e: op(e).update(error=""))
for name, e in cases.items():
    json.dump(e, open(f"{sys.argv[2]}/bad_{name}.json", "w"), indent=2)
PY
invalid "$WORK"/bad_*.json > "$WORK/rejected"
[ "$(wc -l < "$WORK/rejected")" = 8 ] || { cat "$WORK/rejected"; fail "not 8 files rejected"; }
grep -q "bad_unknown_operation.json: rejected: .*cycles_per_byte" "$WORK/rejected" ||
  { cat "$WORK/rejected"; fail "the unknown operation key is not what was rejected"; }
grep -q "bad_wrong_type_median.json: rejected: images\[0\].operations\[0\].statistics.cycles.median" \
  "$WORK/rejected" || { cat "$WORK/rejected"; fail "the mistyped median is not what was rejected"; }

# --- github-benchmark -------------------------------------------------------------------------
check_json "$WORK/run.github-benchmark" '
assert isinstance(d, list) and len(d) == 1, d
e = d[0]
assert set(e) <= {"name", "unit", "value", "range", "extra"}, e
assert e["name"] == "mbedtls/sha256_1k" and e["unit"] == "cycles", e
r = json.load(open("'"$WORK/run.json"'"))
assert e["value"] == r["images"][0]["operations"][0]["statistics"]["cycles"]["median"], e
assert "instructions: " in e["extra"] and "board: sim-m33" in e["extra"], e
'
# The failed KAT is left out (no made-up value) and named on stderr; the healthy one stays.
expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/broken_kat.toml" --runs 1 \
  --format github-benchmark --no-history
check_json "$WORK/out" '
assert [e["name"] for e in d] == ["mbedtls-broken-kat/hmac_sha256"], d
'
expect_err "not in the github-benchmark output (no cycles): mbedtls-broken-kat/sha256_64: known-answer test failed"

# --- errors as JSON ---------------------------------------------------------------------------
# json_error CODE KIND COMMAND TEXT: stdout is one error object with that exit code, kind and
# command whose message has TEXT, and stderr has the same message.
json_error() {
  WANT_TEXT="$4" ERR_FILE="$WORK/err" check_json "$WORK/out" "
import os
e = d['error']
assert set(d) == {'error'} and set(e) == {'kind', 'exit_code', 'command', 'message'}, d
assert e['exit_code'] == $1 and e['kind'] == '$2' and e['command'] == '$3', e
assert os.environ['WANT_TEXT'] in e['message'], e
err = open(os.environ['ERR_FILE']).read()
assert err == 'fathom: ' + e['message'] + '\\n', err
"
}
expect_exit 2 "$FATHOM" run --format json --config nosuch --no-history
json_error 2 usage run "unknown configuration 'nosuch'"
expect_exit 2 "$FATHOM" run --config mbedtls --board nosuch --format json --no-history
json_error 2 usage run "unknown board 'nosuch'"
expect_exit 2 "$FATHOM" run --bogus --format=json
json_error 2 usage run "--bogus"
expect_exit 2 "$FATHOM" run --format json --runs 0
json_error 2 usage run "--runs"
expect_exit 2 "$FATHOM" merge "$WORK/run.json" --format json --no-history
json_error 2 usage merge "not a shard result"
expect_exit 2 "$FATHOM" compare "$WORK/run.json" "$WORK/nosuch.json" --format json
json_error 2 usage compare "nosuch.json"
printf 'not a database\n' > "$WORK/not.sqlite"
expect_exit 1 "$FATHOM" history --format json --db "$WORK/not.sqlite"
json_error 1 runtime history "is not a SQLite database"
# Without --format json the same errors leave stdout empty (the exit codes are the same).
expect_exit 2 "$FATHOM" run --config nosuch --no-history
[ ! -s "$WORK/out" ] || fail "stdout of a failed table run is not empty: $(cat "$WORK/out")"
expect_err "fathom: unknown configuration 'nosuch'"
expect_exit 2 "$FATHOM" run --format csv --board nosuch --no-history
[ ! -s "$WORK/out" ] || fail "stdout of a failed csv run is not empty: $(cat "$WORK/out")"
echo PASS
