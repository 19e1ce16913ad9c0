#!/bin/bash
# A deliberately broken known-answer test: that operation reports no timing in any format, the
# failing vector is named, the run exits 1, and the healthy operation keeps its numbers.
. "$(dirname "$0")/lib.sh"
need_toolchain
SUITE="$SRC/tests/e2e/suites/broken_kat.toml"
expect_exit 1 "$FATHOM" run "$SUITE" --format json
cp "$WORK/out" "$WORK/results.json"
check_json "$WORK/results.json" '
ops = {o["operation"]: o for o in d["images"][0]["operations"]}
assert set(ops) == {"sha256_64", "hmac_sha256"}, sorted(ops)  # the operation filter of the suite
bad, good = ops["sha256_64"], ops["hmac_sha256"]
assert bad["kat"]["status"] == "failed", bad
assert any(not v["passed"] for v in bad["kat"]["vectors"])
assert not bad["samples"]["cycles"] and bad["statistics"]["cycles"] is None, bad
assert bad["memory"]["peak_stack_bytes"] is None
assert good["kat"]["status"] == "passed" and len(good["samples"]["cycles"]) == 2
'
expect_exit 1 "$FATHOM" run "$SUITE" --format csv
python3 - "$WORK/out" <<'PY' || fail "CSV shows a number for the failed operation"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r for r in rows if r["operation"] == "sha256_64"][0]
assert bad["cycles_median"] == "", bad
PY
expect_exit 1 "$FATHOM" run "$SUITE"
grep "sha256_64" "$WORK/out" | grep -q "FAIL" || fail "table does not show the KAT failure"
echo PASS
