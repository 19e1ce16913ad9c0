#!/bin/bash
# An image that faults is reported with the fault kind, PC and function; the healthy image's
# results are still reported; the run exits 1.
. "$(dirname "$0")/lib.sh"
need_toolchain
expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/fault.toml" --format json
cp "$WORK/out" "$WORK/results.json"
check_json "$WORK/results.json" '
images = {i["configuration"]: i for i in d["images"]}
bad, good = images["mbedtls-faulting"], images["mbedtls"]
assert not bad["completed"] and bad["fault"]["kind"] == "unmapped-read", bad["fault"]
assert bad["fault"]["function"].startswith(("test_fault", "time_operation", "main")), bad["fault"]
assert bad["fault"]["pc"] > 0
assert good["completed"] and not good["fault"]
assert all(o["kat"]["status"] == "passed" and o["samples"]["cycles"] for o in good["operations"])
'
expect_exit 1 "$FATHOM" run "$SRC/tests/e2e/suites/fault.toml"
grep -q "unmapped-read" "$WORK/out" || fail "table does not report the fault"
echo PASS
