#!/bin/bash
# Memory measured twice on the default suite: the harness paints the stack and counts the heap
# through its --wrap'ed allocator; the simulator tracks the exact SP and watches the allocator's
# entry and exit (profile::MemoryWatch). For every operation both must be present and agree:
# stack peaks within 4 bytes, heap peak and allocation count equal (docs/PROFILER.md).
. "$(dirname "$0")/lib.sh"
need_toolchain
expect_exit 0 "$FATHOM" run --runs 1 --warmup 0 --format json --no-history
check_json "$WORK/out" '
assert d["images"], "no images"
for im in d["images"]:
    assert im["completed"] and not im["error"], im["error"]
    assert im["operations"], im["configuration"]
    for op in im["operations"]:
        m = op["memory"]
        name = (im["configuration"], op["operation"])
        for key in ["peak_stack_bytes", "heap_peak_bytes", "allocations",
                    "sim_peak_stack_bytes", "sim_heap_peak_bytes", "sim_allocations"]:
            assert isinstance(m[key], int), (name, key, m)
        assert m["sim_peak_stack_bytes"] > 0, (name, m)
        assert abs(m["sim_peak_stack_bytes"] - m["peak_stack_bytes"]) <= 4, (name, m)
        assert m["sim_heap_peak_bytes"] == m["heap_peak_bytes"], (name, m)
        assert m["sim_allocations"] == m["allocations"], (name, m)
        assert m["mismatch"] is None, (name, m)
# The asymmetric operations allocate (Mbed TLS bignums live on the heap): the heap watch saw them.
assert any(op["memory"]["sim_allocations"] > 0 for im in d["images"] for op in im["operations"])
'
grep -q "memory measurements disagree" "$WORK/err" && fail "a mismatch was reported on stderr"
echo PASS
