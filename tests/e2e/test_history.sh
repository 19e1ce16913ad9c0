#!/bin/bash
# Run history: two runs are stored, `history` shows them, a baseline can be set, and a --db that
# is not a fathom history is refused with a clear message and left byte-for-byte unchanged.
# Commands that only read (history, baseline, compare) never create a database: a missing one
# is a usage error saying so; `run` creates it.
. "$(dirname "$0")/lib.sh"
need_toolchain
DB="$WORK/h.sqlite"

export FATHOM_HISTORY_DB="$WORK/default/history.sqlite"
for cmd in history "baseline list" "baseline set main 1" "compare 1 2"; do
  for db in "--db $DB" ""; do
    # shellcheck disable=SC2086
    expect_exit 2 "$FATHOM" $cmd $db
    want="${db#--db }"; want="${want:-$FATHOM_HISTORY_DB}"
    expect_err "fathom: history database '$want' does not exist: no run has been stored there (fathom run stores each run in it); check --db or FATHOM_HISTORY_DB"
    [ ! -e "$DB" ] && [ ! -e "$WORK/default" ] || fail "'$cmd $db' created a history database"
  done
done
: >"$WORK/empty.sqlite"
expect_exit 2 "$FATHOM" history --db "$WORK/empty.sqlite"
expect_err "history database '$WORK/empty.sqlite' is empty: no run has been stored there"
[ ! -s "$WORK/empty.sqlite" ] || fail "history wrote into an empty file"

expect_exit 0 "$FATHOM" run --op sha256_64 --runs 2 --db "$DB" --name first
expect_err "stored as run 1"
expect_exit 0 "$FATHOM" run --op sha256_64 --runs 2 --db "$DB"
expect_err "stored as run 2"

expect_exit 0 "$FATHOM" history --op sha256_64 --db "$DB" --format json
check_json "$WORK/out" '
assert len(d) >= 2, d
assert {r["run"] for r in d} == {1, 2}, d
assert all(r["operation"] == "sha256_64" and r["metric"] == "cycles" for r in d)
assert all(isinstance(r["value"], (int, float)) and r["value"] > 0 for r in d), d
'
expect_exit 0 "$FATHOM" history --op sha256_64 --db "$DB"
[ "$(grep -c sha256_64 "$WORK/out")" -ge 2 ] || { cat "$WORK/out"; fail "table has < 2 rows"; }
expect_exit 0 "$FATHOM" history --op sha256_64 --metric stack --db "$DB" --format csv
head -1 "$WORK/out" | grep -q ',stack$' || fail "csv header lacks the metric"

expect_exit 0 "$FATHOM" baseline set main 1 --db "$DB"
grep -q "baseline main = run 1" "$WORK/out" || fail "baseline set did not confirm"
expect_exit 0 "$FATHOM" baseline set main first --db "$DB"
expect_exit 0 "$FATHOM" baseline list --db "$DB"
grep -q "^main" "$WORK/out" || fail "baseline list lacks main"
expect_exit 2 "$FATHOM" baseline set main 99 --db "$DB"
expect_err "no run 99"

# A file that is not a fathom history: refused, named, unchanged; the run's results survive.
GARBAGE="$WORK/notes.txt"
printf 'my notes, not a database\n' >"$GARBAGE"
cp "$GARBAGE" "$WORK/notes.orig"
expect_exit 1 "$FATHOM" history --db "$GARBAGE"
expect_err "$GARBAGE"
expect_err "not a SQLite database"
expect_exit 0 "$FATHOM" run --op sha256_64 --runs 2 --db "$GARBAGE" --format json
expect_err "warning: run not stored in the history"
check_json "$WORK/out" 'assert d["images"][0]["operations"][0]["kat"]["status"] == "passed"'
cmp -s "$GARBAGE" "$WORK/notes.orig" || fail "the garbage --db file was modified"

# --no-history stores nothing.
expect_exit 0 "$FATHOM" run --op sha256_64 --runs 2 --db "$DB" --no-history
expect_exit 0 "$FATHOM" history --op sha256_64 --db "$DB" --format json
check_json "$WORK/out" 'assert {r["run"] for r in d} == {1, 2}, d'
echo PASS
