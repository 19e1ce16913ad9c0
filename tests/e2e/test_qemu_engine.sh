#!/bin/bash
# Issue 15 item 2: fathom's QEMU engine (QEMU 10 with the engine plugin, --qemu-engine model,
# docs/QEMU-ENGINE.md) gives the simulator's cycles and instruction counts for every timed run,
# its memory watch the simulator's stack and heap figures and its call tracker the primitive
# shares:
# the same timing model driven by QEMU's translation blocks instead of Unicorn's hooks. The
# Mbed TLS configuration of the default suite on both QEMU boards (Cortex-M33 and Cortex-M4),
# cross-checked against the simulator run by run.
. "$(dirname "$0")/lib.sh"
need_toolchain
need_qemu_target
CACHE="${FATHOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fathom}"
QEMU10="$CACHE/qemu10-10.0.13/build/qemu-system-arm"
[ -x "$QEMU10" ] && [ -f "$(dirname "$QEMU10")/.fathom-complete" ] ||
  skip "QEMU 10 is not built ($QEMU10; make qemu10)"
# make qemu10 builds QEMU 10 and then fathom with the plugin: one without the other is a bug.
[ -f "$(dirname "$FATHOM")/libfathom_qemu_engine.so" ] ||
  fail "QEMU 10 is built but $(dirname "$FATHOM")/libfathom_qemu_engine.so is not (configure and build fathom again)"

for BOARD in qemu-mps2-an505 qemu-mps2-an386; do
  expect_exit 0 "$FATHOM" run --board "$BOARD" --config mbedtls --runs 2 --warmup 0 \
    --qemu-engine model --cross-check sim --no-history --format json --out "$WORK/$BOARD"
  check_json "$WORK/$BOARD/results.json" '
im = d["images"][0]
assert im["completed"] and im["error"] in ("", None), im["error"]
p = im["provenance"]
assert p["target"] == "qemu" and "engine" in p["target_details"], p
assert p["target_details"]["qemu"].startswith("QEMU emulator version 10."), p["target_details"]
assert p["timing_model"].startswith(p["core"] + "/"), (p["timing_model"], p["core"])
assert im["totals"]["cycles"] > im["totals"]["instructions"] > 0, im["totals"]
ops = im["operations"]
assert len(ops) == 10, [o["operation"] for o in ops]
for o in ops:
    assert o["kat"]["status"] == "passed", (o["operation"], o["kat"])
    c = o["statistics"]["cycles"]
    assert c is not None and c["count"] == 2 and c["min"] > 0, (o["operation"], c)
    assert o["statistics"]["instructions"]["count"] == 2, o["operation"]
    # The engine carries the simulator'"'"'s memory watch: its figures, agreeing with the harness.
    m = o["memory"]
    assert m["sim_peak_stack_bytes"] and m["sim_peak_stack_bytes"] > 0, (o["operation"], m)
    assert m["sim_allocations"] is not None and m["mismatch"] is None, (o["operation"], m)
    # ... and the primitive-share call tracker: Mbed TLS names its groups.
    assert set(o["primitive_share"]) >= {"AES", "SHA-2", "bignum"}, (o["operation"], o["primitive_share"])
c = im["cross_check"]
assert c["target"] == "sim", c
assert c["differences"] == [], c["differences"]
assert c["operations_compared"] == 10 and c["cycle_operations_compared"] == 10, c
'
done
# The table says that cycles were compared too.
expect_exit 0 "$FATHOM" run --board qemu-mps2-an505 --config mbedtls --op sha256_1k --runs 2 \
  --warmup 0 --qemu-engine model --cross-check sim --no-history
grep -qF "cross-check of mbedtls on qemu-mps2-an505 (qemu) against sim: 1 operation compared, cycles, instruction counts, memory figures and KATs equal" "$WORK/out" ||
  fail "the table does not report the cycle cross-check: $(cat "$WORK/out")"
# Profiles (fathom profile, fathom diagnose): the engine's plugin runs the simulator's call
# tracker, and every export of the operation's profile is the simulator's, byte for byte, but
# Perfetto's, whose timestamps are absolute: they differ by one constant, because the span
# starts where the harness's printing of CYCCNT values, which the guest reads as 0 on QEMU,
# left the count (docs/QEMU-ENGINE.md).
FORMATS="callgrind speedscope folded json perfetto"
for MODE in sim engine; do
  ENGINE=(); [ "$MODE" = engine ] && ENGINE=(--qemu-engine model)
  ARGS=()
  for F in $FORMATS; do ARGS+=(--format "$F"); done
  expect_exit 0 "$FATHOM" profile default --board qemu-mps2-an505 --config mbedtls \
    --op ecdh_p256_shared "${ENGINE[@]}" "${ARGS[@]}" --out "$WORK/$MODE"
  cp "$WORK/out" "$WORK/$MODE.summary"
  # --out is a directory with one file per format (docs/CLI.md "Output files").
  B=mbedtls.ecdh_p256_shared
  for F in $FORMATS; do
    case $F in
      callgrind) N=callgrind.out.$B ;;
      json) N=$B.profile.json ;;
      speedscope | perfetto) N=$B.$F.json ;;
      *) N=$B.$F ;;
    esac
    cp "$WORK/$MODE/$N" "$WORK/$MODE.$F" || fail "--out $WORK/$MODE has no $N"
  done
  expect_exit 0 "$FATHOM" diagnose default --board qemu-mps2-an505 --config mbedtls \
    --config mbedtls-no-nist-optim --op ecdh_p256_keygen --op sha256_1k "${ENGINE[@]}"
  cp "$WORK/out" "$WORK/$MODE.diagnosis"
done
grep -qE "^ecdh_p256_shared: [0-9,]+ cycles, [0-9,]+ instructions, 1 execution" "$WORK/engine.summary" ||
  fail "no profile summary from the engine: $(cat "$WORK/engine.summary")"
for F in summary diagnosis callgrind speedscope folded json; do
  cmp -s "$WORK/sim.$F" "$WORK/engine.$F" ||
    fail "the engine's $F differs from the simulator's: $(diff "$WORK/sim.$F" "$WORK/engine.$F" | head -20)"
done
grep -qE "^ecdh_p256_keygen +[0-9,]+ +[0-9,]+ +[0-9.]+x +SLOWER" "$WORK/engine.diagnosis" ||
  fail "the engine's diagnosis does not find the slower ECDH: $(cat "$WORK/engine.diagnosis")"
python3 - "$WORK/sim.perfetto" "$WORK/engine.perfetto" <<'PY' || fail "Perfetto exports differ beyond a constant offset"
import json, sys
a, b = (json.load(open(f))["traceEvents"] for f in sys.argv[1:])
assert len(a) == len(b) and len(a) > 100, (len(a), len(b))
offsets = set()
for x, y in zip(a, b):
    x, y = dict(x), dict(y)
    xa, ya = dict(x.pop("args", {})), dict(y.pop("args", {}))
    if "ts" in x:
        offsets.add(round(x.pop("ts") - y.pop("ts"), 3))
    if "start_cycles" in xa:
        offsets.add(("start_cycles", xa.pop("start_cycles") - ya.pop("start_cycles")))
    assert (x, xa) == (y, ya), (x, xa, y, ya)
assert len(offsets) <= 2, offsets
print("Perfetto: equal but for the offset", offsets)
PY
# Profiling with the engine needs a QEMU board.
expect_exit 2 "$FATHOM" profile default --config mbedtls --op sha256_1k --qemu-engine model
expect_err "--qemu-engine model profiles on QEMU, and board 'sim-m33' has no [qemu] machine"

# The engine is the QEMU target's: asked for on a simulator board it is a usage error, not a
# silent simulator run.
expect_exit 2 "$FATHOM" run --config mbedtls --op sha256_1k --qemu-engine model --no-history
expect_err "--qemu-engine model applies to the QEMU target, and board 'sim-m33' runs on the sim target"
echo "PASS"
