#!/bin/bash
# Operations of one image on several cores (docs/SIMULATOR.md "Isolation", issue 15 item 3):
# every operation's slot starts from the same machine state, so the slots of one image can run
# on several simulated machines at once. The result must be the one a single machine gives:
# the JSON of `-j 1` and of `-j 4` (one image, so up to four machines run its slots) equal field
# by field, image totals included, and the run must say it used more than one machine. Also
# across a fault: an image whose operation faults gives the single machine's partial result.
source "$(dirname "$0")/lib.sh"
need_toolchain
"$FATHOM" sources | grep -qE '^mbedtls +3\.6\.6 +ok' ||
  skip "mbedtls sources are not cached (fathom sources --fetch)"

ops=(--op ecdh_p256_keygen --op sha256_1k --op hmac_sha256 --op aes128_gcm_encrypt_1k
     --op ecdsa_p256_sign --op hkdf_sha256)
expect_exit 0 "$FATHOM" run --config mbedtls "${ops[@]}" -j 1 --fresh --no-history --format json
cp "$WORK/out" "$WORK/one.json"
grep -q "machines at once" "$WORK/err" && fail "-j 1 ran operations on several machines"
expect_exit 0 "$FATHOM" run --config mbedtls "${ops[@]}" -j 4 --fresh --no-history --format json
cp "$WORK/out" "$WORK/four.json"
grep -qE "operations ran on up to [2-4] machines at once" "$WORK/err" ||
  { cat "$WORK/err" >&2; fail "-j 4 did not run the image's operations on several machines"; }
grep -q "ran again on one machine" "$WORK/err" &&
  { cat "$WORK/err" >&2; fail "-j 4 ran the image again on one machine"; }

python3 - "$WORK/one.json" "$WORK/four.json" <<'PY' || fail "parallel slots changed the result"
import json, sys
one, four = (json.load(open(f)) for f in sys.argv[1:])
differences = []
def walk(a, b, path):
    if type(a) != type(b):
        differences.append((path, a, b))
    elif isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            walk(a.get(k), b.get(k), f"{path}/{k}")
    elif isinstance(a, list):
        if len(a) != len(b):
            differences.append((path, len(a), len(b)))
        for i, (x, y) in enumerate(zip(a, b)):
            walk(x, y, f"{path}[{i}]")
    elif a != b:
        differences.append((path, a, b))
walk(one, four, "")
assert not differences, differences[:10]
image = one["images"][0]
assert image["completed"], image["error"]
assert len(image["operations"]) == 6, [o["operation"] for o in image["operations"]]
for o in image["operations"]:
    assert o["kat"]["status"] == "passed", o
    assert o["samples"]["cycles"] and o["samples"]["instructions"], o["operation"]
    assert o["memory"]["mismatch"] is None, o["memory"]
print("identical:", image["totals"], [o["statistics"]["cycles"]["median"]
                                     for o in image["operations"]])
PY

# The KAT phase runs counted but untimed (every slot restores the snapshot's timing state):
# timing it as well changes no operation's figure, only the image's totals.
untimed=$(python3 -c 'import json,sys; t=json.load(open(sys.argv[1]))["images"][0]["totals"]
assert 0 < t["untimed_instructions"] < t["instructions"], t; print(t["untimed_instructions"])' \
  "$WORK/one.json") || fail "the KAT phase was not counted untimed"
expect_exit 0 "$FATHOM" run --config mbedtls "${ops[@]}" -j 4 --fresh --no-history --format json \
  --time-kat-phase
python3 - "$WORK/one.json" "$WORK/out" <<'PY' || fail "timing the KAT phase changed a figure"
import json, sys
untimed, timed = (json.load(open(f))["images"][0] for f in sys.argv[1:])
a, b = untimed["totals"], timed["totals"]
assert b["untimed_instructions"] == 0, b
# Every instruction is timed now: more cycles; the instructions differ only by the digits of
# the CYCCNT values the records print.
assert b["cycles"] > a["cycles"] + a["untimed_instructions"] // 2, (a, b)
assert abs(b["instructions"] - a["instructions"]) < 10000, (a, b)
assert untimed["operations"] == timed["operations"], [
    (x["operation"], k) for x, y in zip(untimed["operations"], timed["operations"])
    for k in x if x[k] != y.get(k)]
print("KAT phase untimed:", a, "timed:", b)
PY

# A fault inside one operation's slot: several machines cannot decide what a single machine
# would have left (the slots after it never run there), so the single machine's result stands.
for j in 1 4; do
  expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/fault.toml" --config mbedtls-faulting \
    -j "$j" --fresh --no-history --format json
  cp "$WORK/out" "$WORK/fault$j.json"
  [ "$j" = 1 ] || grep -q "1 image ran again on one machine" "$WORK/err" ||
    { cat "$WORK/err" >&2; fail "-j 4 did not say the faulting image ran again alone"; }
done
python3 - "$WORK/fault1.json" "$WORK/fault4.json" <<'PY' || fail "a faulting image differs with -j 4"
import json, sys
one, four = (json.load(open(f)) for f in sys.argv[1:])
a, b = one["images"][0], four["images"][0]
assert not a["completed"] and a["fault"]["kind"] == "unmapped-read", a["fault"]
assert a == b, [k for k in a if a[k] != b.get(k)]
print("fault at", hex(a["fault"]["pc"]), "in both;", len(a["operations"]), "operations")
PY
echo "PASS"
