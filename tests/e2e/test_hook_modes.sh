#!/bin/bash
# The simulator's measuring mode (block hooks) gives exactly the counts of the per-instruction
# reference on real crypto code, on cores whose models read operands (M3 long multiplies, M4/M33
# divides) and with IT blocks, device accesses and CYCCNT reads inside blocks; and so do the
# observers every run carries (memory watch: stack and heap; primitive shares and calls). Both
# modes count the KAT phase untimed alike; on sim-m33 it is timed too (--time-kat-phase), so the
# reference also covers the known-answer code.
. "$(dirname "$0")/lib.sh"
need_toolchain
export FATHOM_HISTORY_DB="$WORK/history.sqlite"
OPS="--op sha256_1k --op aes128_gcm_encrypt_1k --op ecdh_p256_keygen --op hkdf_sha256"
for board in sim-m33 sim-m4 sim-m3; do
  kat=""; [ "$board" = sim-m33 ] && kat=--time-kat-phase
  for hooks in block per-instruction; do
    expect_exit 0 "$FATHOM" run --config mbedtls --board "$board" $OPS --runs 2 --warmup 0 \
      --sim-hooks "$hooks" --format json --no-history $kat
    cp "$WORK/out" "$WORK/$board-$hooks.json"
  done
  python3 - "$WORK/$board-block.json" "$WORK/$board-per-instruction.json" "$kat" <<'PY' ||
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def figures(d):
    out = {}
    for image in d["images"]:
        t = image["totals"]
        out[image["board"], "total"] = (t["cycles"], t["instructions"], t["untimed_instructions"])
        for op in image["operations"]:
            m = op["memory"]
            # The observers' outputs too: the memory watch (stack, heap) and the
            # primitive-share tracker see the same execution in both modes.
            out[image["board"], op["operation"]] = (
                op["samples"]["cycles"], op["samples"]["instructions"],
                m["sim_peak_stack_bytes"], m["sim_heap_peak_bytes"], m["sim_allocations"],
                m["mismatch"], sorted(op["primitive_share"].items()),
                sorted(op["primitive_calls"].items()))
    return out
fa, fb = figures(a), figures(b)
assert fa == fb, f"block and per-instruction counts differ: {fa} vs {fb}"
untimed = [v[2] for k, v in fa.items() if k[1] == "total"]
assert untimed == ([0] if sys.argv[3] else [untimed[0]]) and (sys.argv[3] or untimed[0] > 0), untimed
assert all(v[0] for k, v in fa.items() if k[1] != "total"), f"missing samples: {fa}"
assert all(v[2] and v[6] for k, v in fa.items() if k[1] != "total"), f"no observer output: {fa}"
assert all(v[5] is None for k, v in fa.items() if k[1] != "total"), f"memory mismatch: {fa}"
PY
    fail "$board: block hooks and per-instruction hooks disagree"
done
echo PASS
