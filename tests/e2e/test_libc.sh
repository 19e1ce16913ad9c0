#!/bin/bash
# The C library axis: Mbed TLS built against newlib, newlib-nano and picolibc (suites/libc.toml
# of the e2e tests). Every image builds (the builder proves from the linked allocator that it
# has the libc it claims), every KAT passes, the harness's heap figures agree with the
# simulator's watch of the __wrap_ allocator (so picolibc's malloc goes through the wrappers
# too), and the provenance in JSON and CSV names the libc.
. "$(dirname "$0")/lib.sh"
need_toolchain
[ -d /usr/lib/picolibc/arm-none-eabi ] ||
  skip "picolibc-arm-none-eabi is not installed (run make setup)"
SUITE="$SRC/tests/e2e/suites/libc.toml"

expect_exit 0 "$FATHOM" run "$SUITE" --no-history --format json
check_json "$WORK/out" '
images = {i["configuration"]: i for i in d["images"]}
want = {"mbedtls-newlib": "newlib", "mbedtls-newlib-nano": "newlib-nano",
        "mbedtls-picolibc": "picolibc"}
assert set(images) == set(want), sorted(images)
elfs = set()
for name, libc in want.items():
    im = images[name]
    assert im["completed"] and not im["error"], (name, im["error"])
    assert im["provenance"]["libc"] == libc, (name, im["provenance"]["libc"])
    elfs.add(im["provenance"]["elf_sha256"])
    ops = {o["operation"]: o for o in im["operations"]}
    assert set(ops) == {"sha256_64", "hmac_sha256"}, (name, sorted(ops))
    for op_name, op in ops.items():
        assert op["kat"]["status"] == "passed", (name, op_name, op["kat"])
        assert len(op["samples"]["cycles"]) == 1, (name, op_name)
        m = op["memory"]
        assert m["mismatch"] is None, (name, op_name, m)
        assert m["sim_heap_peak_bytes"] == m["heap_peak_bytes"], (name, op_name, m)
        assert m["sim_allocations"] == m["allocations"], (name, op_name, m)
        assert abs(m["sim_peak_stack_bytes"] - m["peak_stack_bytes"]) <= 4, (name, op_name, m)
    # HMAC allocates its digest context on the heap: the wrappers saw the libc malloc.
    assert ops["hmac_sha256"]["memory"]["allocations"] > 0, (name, ops["hmac_sha256"]["memory"])
assert len(elfs) == 3, "the three libcs gave fewer than three distinct images"
'
grep -q "memory measurements disagree" "$WORK/err" && fail "a mismatch was reported on stderr"

# The CSV carries the libc per row (these results come from the result cache).
expect_exit 0 "$FATHOM" run "$SUITE" --no-history --format csv
python3 - "$WORK/out" <<'PY' || fail "CSV libc column check failed"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == 6, len(rows)
for r in rows:
    assert r["configuration"] == "mbedtls-" + r["libc"], r
PY
echo PASS
