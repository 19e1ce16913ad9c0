#!/bin/bash
# The QEMU target (docs/BOARDS.md "QEMU target"): the default suite's Mbed TLS image on the
# qemu-mps2-an386 board, run by qemu-system-arm with fathom's instruction-counting plugin. KATs
# pass, cycles are unavailable (null, never 0) and every operation has instruction samples.
. "$(dirname "$0")/lib.sh"
need_toolchain
need_qemu_target
BOARD="${FATHOM_QEMU_TEST_BOARD:-qemu-mps2-an386}"
[ -f "$SRC/firmware/boards/$BOARD/board.toml" ] || skip "no board $BOARD in firmware/boards"

expect_exit 0 "$FATHOM" run --board "$BOARD" --config mbedtls --op sha256_1k \
  --op ecdh_p256_keygen --runs 2 --no-history --fresh --format json --out "$WORK/run"
check_json "$WORK/run/results.json" '
ims = d["images"]
assert len(ims) == 1, len(ims)
im = ims[0]
assert im["completed"], im["error"]
assert im["error"] in ("", None), im["error"]
assert im["provenance"]["target"] == "qemu", im["provenance"]
assert im["totals"]["instructions"] > 0, im["totals"]
ops = {o["operation"]: o for o in im["operations"]}
for name in ("sha256_1k", "ecdh_p256_keygen"):
    o = ops[name]
    assert o["kat"]["status"] == "passed", (name, o["kat"])
    assert o["statistics"]["cycles"] is None, (name, o["statistics"]["cycles"])
    assert o["samples"]["cycles"] == [], (name, o["samples"]["cycles"])
    ins = o["statistics"]["instructions"]
    assert ins is not None and ins["count"] == 2 and ins["median"] > 0, (name, ins)
    assert len(o["samples"]["instructions"]) == 2, (name, o["samples"])
# The larger operation costs more: the counts are not a constant.
assert (ops["ecdh_p256_keygen"]["statistics"]["instructions"]["median"] >
        10 * ops["sha256_1k"]["statistics"]["instructions"]["median"]), ops
'
# The table says why there are no cycles.
expect_exit 0 "$FATHOM" run --board "$BOARD" --config mbedtls --op sha256_1k --runs 2 \
  --no-history --format table
grep -qF "cycles unavailable on this target (QEMU models no cycle counter)" "$WORK/out" ||
  { cat "$WORK/out"; fail "the table lacks the cycles-unavailable footnote"; }
grep -E '^sha256_1k +mbedtls ' "$WORK/out" | grep -q 'n/a' ||
  { cat "$WORK/out"; fail "the sha256_1k row does not print n/a for cycles"; }
echo "QEMU target: KATs pass, cycles null, instructions counted"
