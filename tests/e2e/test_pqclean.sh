#!/bin/bash
# PQClean ML-KEM / ML-DSA end to end (suites/pq.toml, firmware/workloads/pqclean): a cheap
# subset — the ML-KEM-1024 operations and ML-DSA-44 sign and verify — with --runs 2. Checks that
# every known-answer vector passed, that signing is timed over >= 100 distinct messages (its
# min_runs, the INPUTS record) while the other operations keep --runs, that the reports say so
# (JSON distinct_inputs, CSV column, the table's '*' and footnote), and that each operation
# reports the sizes of its objects (BYTES records) as FIPS 203 / FIPS 204 define them.
. "$(dirname "$0")/lib.sh"
need_toolchain
"$FATHOM" sources | grep -qE '^pqclean +0\.8\.1 +ok' || command -v npm >/dev/null 2>&1 ||
  skip "pqclean sources are not cached and npm is not installed (fathom sources --fetch)"

ops=(--op mlkem1024_keygen --op mlkem1024_encaps --op mlkem1024_decaps
     --op mldsa44_sign --op mldsa44_verify)
expect_exit 0 "$FATHOM" run pq "${ops[@]}" --runs 2 --warmup 0 --no-history --out "$WORK/res"
cp "$WORK/out" "$WORK/table"
check_json "$WORK/res/results.json" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
assert set(ops) == {"mlkem1024_keygen", "mlkem1024_encaps", "mlkem1024_decaps",
                    "mldsa44_sign", "mldsa44_verify"}, sorted(ops)
for name, op in ops.items():
    assert op["kat"]["status"] == "passed", (name, op["kat"])
    assert op["kat"]["vectors"] and all(v["passed"] for v in op["kat"]["vectors"]), name
names = {v["name"] for v in ops["mldsa44_verify"]["kat"]["vectors"]}
assert {"nist_kat_count0_verify", "corrupted_sig_rejected", "corrupted_msg_rejected"} <= names
names = {v["name"] for v in ops["mlkem1024_decaps"]["kat"]["vectors"]}
assert "corrupted_ct_implicit_rejection" in names, names

sign = ops["mldsa44_sign"]
assert sign["distinct_inputs"] >= 100, sign["distinct_inputs"]
assert len(sign["samples"]["cycles"]) == sign["distinct_inputs"]
st = sign["statistics"]["cycles"]
assert st["count"] == sign["distinct_inputs"]
# Rejection sampling: distinct messages take different numbers of iterations.
assert st["min"] < st["median"] <= st["p99"] <= st["max"], st
assert len(set(sign["samples"]["cycles"])) > 10
for name in ("mlkem1024_keygen", "mldsa44_verify"):
    assert ops[name]["distinct_inputs"] is None, name
    assert len(ops[name]["samples"]["cycles"]) == 2, name

# Sizes as FIPS 203 (ML-KEM-1024) and FIPS 204 (ML-DSA-44) define them.
assert ops["mlkem1024_keygen"]["object_bytes"] == {"public_key": 1568, "secret_key": 3168}
for name in ("mlkem1024_encaps", "mlkem1024_decaps"):
    assert ops[name]["object_bytes"] == {"ciphertext": 1568, "shared_secret": 32}, name
assert sign["object_bytes"] == {"public_key": 1312, "secret_key": 2560, "signature": 2420}
assert ops["mldsa44_verify"]["object_bytes"] == {"public_key": 1312, "signature": 2420}
'

# The table marks the distribution and explains it under the table: the compact table on
# stdout marks the operation, the wide one (--out's results.table) the n column.
grep -qE '^mldsa44_sign\* +pqclean-clean ' "$WORK/table" ||
  { cat "$WORK/table" >&2; fail "mldsa44_sign row lacks the '*' after its name"; }
grep -qE '^pqclean-clean +mldsa44_sign .* 1[0-9][0-9]\* ' "$WORK/res/results.table" ||
  { cat "$WORK/res/results.table" >&2; fail "mldsa44_sign row of results.table lacks n with '*'"; }
grep -qE '^\* mldsa44_sign \(pqclean-clean\): 1[0-9][0-9] distinct inputs' "$WORK/table" ||
  { cat "$WORK/table" >&2; fail "no distinct-inputs footnote for mldsa44_sign"; }

# CSV has the count in its own column (the same results come from the result cache).
expect_exit 0 "$FATHOM" run pq "${ops[@]}" --runs 2 --warmup 0 --no-history --format csv
python3 - "$WORK/out" <<'PY' || fail "CSV distinct_inputs check failed"
import csv, sys
rows = {r["operation"]: r for r in csv.DictReader(open(sys.argv[1], newline=""))}
assert int(rows["mldsa44_sign"]["distinct_inputs"]) >= 100, rows["mldsa44_sign"]
assert rows["mldsa44_verify"]["distinct_inputs"] == "", rows["mldsa44_verify"]
PY

# fathom size on the same image: its workloads' KAT strings are merged across the ML-DSA files
# (GNU ld lists each copy at its size before merging), and the components still add up to it.
expect_exit 0 "$FATHOM" size pq --format json
python3 - "$WORK/out" <<'PY' || fail "fathom size pq"
import json, sys
d = json.load(open(sys.argv[1]))
im = d["images"][0]
assert im["error"] is None, im["error"]
comps = {c["component"]: c for c in im["components"]}
assert comps["pqclean"]["text_bytes"] > comps["harness"]["text_bytes"], comps
for k in ["text_bytes", "rodata_bytes", "data_bytes", "bss_bytes"]:
    assert sum(c[k] for c in comps.values()) == im["total"][k], k
PY
echo PASS
