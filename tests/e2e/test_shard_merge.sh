#!/bin/bash
# `fathom run --shard i/N` and `fathom merge` (docs/SCALE-OUT.md): the suite run whole and as 3
# shards; the merge of the shards is the whole run's JSON except the fields that differ per
# process (docs/CLI.md "fathom merge"), including the fairness check whose images are in three
# different shards (each shard passes alone; the merge fails as the whole run does). Missing,
# foreign and mismatched shards and bad --shard values are usage errors.
. "$(dirname "$0")/lib.sh"
need_toolchain
SUITE="$SRC/tests/e2e/suites/shard.toml"

# The whole run: the smaller SHA-256 fails the fairness control, exit 1.
start=$(date +%s%N)
expect_exit 1 "$FATHOM" run "$SUITE" --fresh --no-history --format json
whole_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cp "$WORK/out" "$WORK/whole.json"
check_json "$WORK/whole.json" '
assert [i["configuration"] for i in d["images"]] == ["mbedtls", "mbedtls-no-nist-optim",
    "mbedtls-sha256-smaller", "mbedtls-apart"], d["images"]
assert d["shard"] is None
assert len(d["fairness"]) == 1 and not d["fairness"][0]["passed"], d["fairness"]
assert len(d["fairness"][0]["configurations"]) == 3, d["fairness"]
'

# Three shards, round robin: 1 = images 0 and 3, 2 = image 1, 3 = image 2. No shard holds two
# images of the fairness group, so each passes on its own.
start=$(date +%s%N)
for i in 1 2 3; do
  expect_exit 0 "$FATHOM" run "$SUITE" --shard "$i/3" --fresh --no-history --format json \
    --out "$WORK/s$i"
  cmp -s "$WORK/out" "$WORK/s$i/results.json" || fail "shard $i: stdout and --out differ"
done
shard_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "wall time: whole run ${whole_ms} ms, 3 shards one after another ${shard_ms} ms"
for i in 1 2 3; do
  check_json "$WORK/s$i/results.json" "
i = $i
want = {1: ['mbedtls', 'mbedtls-apart'], 2: ['mbedtls-no-nist-optim'], 3: ['mbedtls-sha256-smaller']}[i]
assert [im['configuration'] for im in d['images']] == want, d['images']
s = d['shard']
assert s['index'] == i and s['count'] == 3, s
assert len(s['selection_sha256']) == 64, s
sel = s['selection']
assert sel['suite'] == 'shard' and sel['suite_argument'].endswith('tests/e2e/suites/shard.toml')
assert [(x['configuration'], x['board']) for x in sel['images']] == [('mbedtls', 'sim-m33'),
    ('mbedtls-no-nist-optim', 'sim-m33'), ('mbedtls-sha256-smaller', 'sim-m33'),
    ('mbedtls-apart', 'sim-m33')], sel['images']
assert sel['runs'] == 2 and sel['warmup'] == 0 and sel['operations'] == ['sha256_64'], sel
assert sel['sim_hooks'] == 'block' and sel['target'] is None and sel['cross_check'] is None
assert d['fairness'] == [], d['fairness']
"
done

# The per-process fields (docs/CLI.md "fathom merge"): none here besides reused_from, which
# --fresh leaves null in every run; compared anyway by the documented rule.
compare_to_whole() {
  python3 - "$WORK/whole.json" "$1" <<'PY' || fail "the merge of $1 differs from the whole run"
import json, sys
whole, merged = (json.load(open(p)) for p in sys.argv[1:3])
PER_PROCESS = {("provenance", "reused_from")}
def first_difference(a, b, path):
    if isinstance(a, dict) and isinstance(b, dict):
        if list(a) != list(b):
            return f"{path}: keys {list(a)} vs {list(b)}"
        for k in a:
            if len(path) and (path[-1], k) in PER_PROCESS:
                continue
            d = first_difference(a[k], b[k], path + (k,))
            if d: return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{'.'.join(map(str, path))}: {len(a)} items vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, path + (i,))
            if d: return d
        return None
    if a != b or type(a) != type(b):
        return f"{'.'.join(map(str, path))}: {a!r} (whole) vs {b!r} (merged)"
    return None
d = first_difference(whole, merged, ())
if d:
    print("first difference:", d, file=sys.stderr)
    sys.exit(1)
PY
}

# The merge: exit 1 as the whole run (its fairness check fails), the same JSON.
expect_exit 1 "$FATHOM" merge "$WORK/s1/results.json" "$WORK/s2/results.json" \
  "$WORK/s3/results.json" --no-history --format json
expect_err "merged 3 shards of suite 'shard': 4 images"
cp "$WORK/out" "$WORK/merged.json"
compare_to_whole "$WORK/merged.json"

# In another order, with one file twice (used once), into --out and the history.
expect_exit 1 "$FATHOM" merge "$WORK/s3/results.json" "$WORK/s1/results.json" \
  "$WORK/s2/results.json" "$WORK/s3/results.json" --db "$WORK/history.db" --name sharded \
  --format table --out "$WORK/m"
expect_err "$WORK/s3/results.json is $WORK/s3/results.json again (shard 3/3): used once"
expect_err "stored as run 1 in $WORK/history.db"
grep -q "hkdf_sha256 in mbedtls" "$WORK/out" || { cat "$WORK/out"; fail "no fairness line"; }
compare_to_whole "$WORK/m/results.json"

# Errors name the files: a missing shard, a file that is not a shard, the same shard with
# different contents, shards of another count or another selection (empty shards: no
# simulation needed).
expect_exit 2 "$FATHOM" merge "$WORK/s1/results.json" "$WORK/s3/results.json" --no-history
expect_err "shard 2/3 missing: give its result file"
expect_exit 2 "$FATHOM" merge "$WORK/whole.json" "$WORK/s1/results.json" --no-history
expect_err "$WORK/whole.json: not a shard result"
python3 - "$WORK/s2/results.json" "$WORK/s2-edited.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["images"][0]["operations"][0]["samples"]["cycles"][0] += 1
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
expect_exit 2 "$FATHOM" merge "$WORK/s1/results.json" "$WORK/s2/results.json" \
  "$WORK/s2-edited.json" "$WORK/s3/results.json" --no-history
expect_err "$WORK/s2/results.json and $WORK/s2-edited.json are both shard 2/3 with different contents"
expect_exit 0 "$FATHOM" run "$SUITE" --shard 5/5 --no-history --format json
expect_err "shard 5/5 has no images (the selection has 4): its result is empty"
check_json "$WORK/out" 'assert d["images"] == [] and d["shard"]["count"] == 5, d'
cp "$WORK/out" "$WORK/of-five.json"
expect_exit 2 "$FATHOM" merge "$WORK/s1/results.json" "$WORK/of-five.json" --no-history
expect_err "$WORK/s1/results.json is shard 1/3 but $WORK/of-five.json is shard 5/5"
expect_exit 0 "$FATHOM" run "$SUITE" --config mbedtls --shard 3/3 --no-history --format json
cp "$WORK/out" "$WORK/other.json"
expect_exit 2 "$FATHOM" merge "$WORK/s1/results.json" "$WORK/s2/results.json" \
  "$WORK/other.json" --no-history
expect_err "$WORK/s1/results.json and $WORK/other.json are shards of different selections"

# Bad --shard values and history flags with --shard are usage errors, before anything runs.
for bad in 0/3 4/3 x 3 1/0; do
  expect_exit 2 "$FATHOM" run "$SUITE" --shard "$bad" --no-history
  expect_err "--shard '$bad' is not a shard: use --shard i/N with 1 <= i <= N"
done
expect_exit 2 "$FATHOM" run "$SUITE" --shard 1/3 --db "$WORK/history.db"
expect_err "--db with --shard: a shard is not stored in the history; store the merged run"
expect_exit 2 "$FATHOM" run "$SUITE" --shard 1/3 --name part
expect_err "--name with --shard"
exit 0
