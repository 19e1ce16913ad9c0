#!/bin/bash
# Order independence (docs/PROTOCOL.md "Isolation"): on the simulator every operation's runs
# start from the same post-boot machine state, so an operation's figures do not depend on which
# other operations were selected or in which order they ran. For every operation of the default
# suite's mbedtls image and of the pqclean library (suites/pq.toml as
# tests/e2e/suites/isolation_pq.toml, whose ML-DSA signing makes 2 distinct-input runs instead of
# at least 100), the cycle and instruction
# samples, peak stack, heap peak, allocations and heap in use at the start must be identical
# when the operation runs alone, when all run in reverse order, and in the full suite. The
# provenance must say how operations were isolated and in which order they ran.
#
# Every run uses --runs 2 --warmup 0: two timed samples per operation (so the second run, which
# follows the first inside the operation, is compared as well as the first), and no warm-up: a
# warm-up run would absorb a difference that only an operation's first execution shows (a table
# built lazily, a free list left by an earlier operation), so without it the first timed run
# shows it; it also saves one simulation of every operation in each of the 3 selections.
#
# The default suite's second image (mbedtls-no-nist-optim) is left out: it has the same ten
# operations, harness and library code but for P-256's modular reduction, whose generic
# version made its ECC operations most of this test's time, to repeat the same isolation
# check: measured alone on the 2-core machine, 2026-12-03, 222 s with it and 94 s without
# (in a clean clone's ctest, 351 s: the longest test).
. "$(dirname "$0")/lib.sh"
need_toolchain
"$FATHOM" sources | grep -qE '^mbedtls +3\.6\.6 +ok' ||
  skip "mbedtls sources are not cached (fathom sources --fetch)"
"$FATHOM" sources | grep -qE '^pqclean +0\.8\.1 +ok' ||
  skip "pqclean sources are not cached (fathom sources --fetch)"

SRC="$SRC" python3 - "$FATHOM" "$WORK" <<'PY' || fail "isolation check failed"
import json, os, subprocess, sys

fathom, work = sys.argv[1], sys.argv[2]
count = 0

def run(suite, ops):
    """Runs `suite` with `ops` in that order (all: None); returns {(config, op): figures}."""
    global count
    count += 1
    out = os.path.join(work, f"run{count}")
    cmd = [fathom, "run", suite, "--runs", "2", "--warmup", "0", "--no-history", "--fresh",
           "--out", out]
    if suite == "default":
        cmd += ["--config", "mbedtls"]
    for op in ops or []:
        cmd += ["--op", op]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    d = json.load(open(os.path.join(out, "results.json")))
    figures, orders = {}, {}
    for im in d["images"]:
        assert im["completed"], (suite, im["configuration"], im["error"])
        prov = im["provenance"]
        assert prov["isolation"] == "snapshot", prov["isolation"]
        orders[im["configuration"]] = prov["run_order"]
        for o in im["operations"]:
            assert o["kat"]["status"] == "passed", (o["operation"], o["kat"])
            m = o["memory"]
            assert m["mismatch"] is None, (o["operation"], m["mismatch"])
            assert m["heap_start_bytes"] is not None, o["operation"]
            if o["operation"].endswith("_sign") and o["operation"].startswith("mldsa"):
                # The capped minimum reached the image: distinct inputs, two of them.
                assert o["distinct_inputs"] == 2, (o["operation"], o["distinct_inputs"])
            figures[(im["configuration"], o["operation"])] = (
                o["samples"]["cycles"], o["samples"]["instructions"], m["peak_stack_bytes"],
                m["heap_peak_bytes"], m["allocations"], m["heap_start_bytes"])
    return figures, orders

for suite in ("default", os.path.join(os.environ["SRC"], "tests/e2e/suites/isolation_pq.toml")):
    full, orders = run(suite, None)
    ops = list(next(iter(orders.values())))
    assert len(ops) >= 10, (suite, ops)
    for config, order in orders.items():
        assert order == ops, (config, order, ops)
    rev, rev_orders = run(suite, list(reversed(ops)))
    for config, order in rev_orders.items():
        assert order == list(reversed(ops)), (config, order)
    assert set(rev) == set(full), (sorted(rev), sorted(full))
    for key in sorted(full):
        assert rev[key] == full[key], ("reverse order", key, rev[key][2:], full[key][2:],
                                       rev[key][0], full[key][0])
    for op in ops:
        alone, _ = run(suite, [op])
        assert {k[1] for k in alone} == {op}, sorted(alone)
        for key, figures in alone.items():
            assert figures == full[key], ("alone", key, figures[2:], full[key][2:], figures[0],
                                          full[key][0])
    print(f"{suite}: {len(full)} operation figures identical alone, reversed and in the full "
          f"suite ({len(ops)} operations)")
PY
