#!/bin/bash
# Issue 14's "done when": the default suite on both QEMU boards (qemu-mps2-an386, Cortex-M4;
# qemu-mps2-an505, Cortex-M33 at the Secure aliases) with every KAT passing, and each image run
# again on the simulator: QEMU's instruction counts per timed run equal the simulator's
# (`--cross-check sim`, docs/CLI.md "Targets"). Two independent emulators of one ISA agree.
. "$(dirname "$0")/lib.sh"
need_toolchain
need_qemu_target

# --runs 2 --warmup 0: two timed runs per operation are compared; the suite's warm-up run
# (compared by nothing) would only add one more execution of every operation on QEMU and again
# on the simulator.
for BOARD in qemu-mps2-an386 qemu-mps2-an505; do
  # On a failure the report (stdout, JSON) says why: each image's error and cross-check
  # differences are printed with fathom's stderr.
  "$FATHOM" run --board "$BOARD" --runs 2 --warmup 0 --cross-check sim \
    --no-history --format json --out "$WORK/$BOARD" >"$WORK/out" 2>"$WORK/err"
  got=$?
  if [ "$got" != 0 ]; then
    cat "$WORK/err" >&2
    python3 -c '
import json, sys
for im in json.load(open(sys.argv[1]))["images"]:
    print(im["configuration"], "error:", im.get("error"), "fault:", im.get("fault"),
          "cross-check:", (im.get("cross_check") or {}).get("differences"), file=sys.stderr)
' "$WORK/out" || head -c 4000 "$WORK/out" >&2
    fail "fathom run --board $BOARD --cross-check sim exited $got, expected 0"
  fi
  check_json "$WORK/$BOARD/results.json" '
ims = d["images"]
assert len(ims) == 2, [i["configuration"] for i in ims]   # the default suite: two configurations
for im in ims:
    assert im["completed"] and im["error"] in ("", None), (im["configuration"], im["error"])
    assert im["provenance"]["target"] == "qemu", im["provenance"]["target"]
    ops = im["operations"]
    assert len(ops) >= 10, len(ops)
    for o in ops:
        assert o["kat"]["status"] == "passed", (im["configuration"], o["operation"], o["kat"])
        assert o["statistics"]["cycles"] is None, o["operation"]
        assert o["statistics"]["instructions"]["median"] > 0, o["operation"]
    c = im["cross_check"]
    assert c is not None and c["target"] == "sim", c
    assert c["differences"] == [], c["differences"]
    assert c["operations_compared"] == len(ops), (c["operations_compared"], len(ops))
'
done
# The table says what was compared (the comparison itself, differences included, is unit-tested
# in tests/unit/pipeline/cross_check_test.cpp). `--fresh` measures both sides in this run...
expect_exit 0 "$FATHOM" run --board qemu-mps2-an386 --config mbedtls --op sha256_1k --runs 2 \
  --warmup 0 --cross-check sim --no-history --fresh
grep -qF "cross-check of mbedtls on qemu-mps2-an386 (qemu) against sim: 1 operation compared, instruction counts, memory figures and KATs equal" "$WORK/out" ||
  fail "the table does not report the cross-check: $(cat "$WORK/out")"
if grep -qF "reused" "$WORK/out"; then fail "--fresh reused a result: $(cat "$WORK/out")"; fi
# ...and the same cross-check again compares the two stored measurements, saying so for each.
expect_exit 0 "$FATHOM" run --board qemu-mps2-an386 --config mbedtls --op sha256_1k --runs 2 \
  --warmup 0 --cross-check sim --no-history --format json --out "$WORK/again"
check_json "$WORK/again/results.json" '
im = d["images"][0]
assert im["provenance"]["reused_from"], im["provenance"]
c = im["cross_check"]
assert c["target"] == "sim" and c["operations_compared"] == 1 and c["differences"] == [], c
assert c["reused_from"], c
'
echo "PASS"
