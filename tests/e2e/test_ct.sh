#!/bin/bash
# fathom ct (docs/CT.md) on the constant-time fixtures, whose verdicts are known
# (tests/e2e/suites/ct.toml): the early-exit tag compare, the secret branch and the secret divide
# leak on both boards, the XOR-accumulating compare is constant, ECDH's time varies with its
# private scalar but also with the scalar fixed (Mbed TLS's random blinding), so it is "varies",
# and SHA-256 declares no secret ("not checked"). A leak exits 4; the divergence names the
# function where the fastest and slowest variant part.
. "$(dirname "$0")/lib.sh"
need_toolchain
SUITE="$SRC/tests/e2e/suites/ct.toml"
expect_exit 4 "$FATHOM" ct "$SUITE" --format json -j 2
cp "$WORK/out" "$WORK/ct.json"
python3 - "$WORK/ct.json" <<'PY' || { cat "$WORK/ct.json" >&2; fail "ct verdicts"; }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["variants"] == 32, d["variants"]
ops = {(o["board"], o["operation"]): o for o in d["operations"]}
want = {"ct_tag_compare_early_exit": "leak", "ct_tag_compare_constant": "constant",
        "ct_secret_branch": "leak", "ct_secret_divide": "leak", "ecdh_p256_shared": "varies",
        "sha256_1k": "not checked"}
for board in ("sim-m33", "sim-m0plus"):
    for op, verdict in want.items():
        o = ops[(board, op)]
        assert o["verdict"] == verdict, (board, op, o)
        if verdict == "not checked":
            assert o["variants"] is None and "declares no secret" in o["reason"], o
            continue
        assert o["variants"] == 32, o
        assert o["spread_cycles"] == o["max_cycles"] - o["min_cycles"], o
        if verdict == "constant":
            assert o["spread_cycles"] == 0 and o["distinct_cycle_counts"] == 1, o
            assert o["divergence"] is None, o
        else:
            assert o["spread_cycles"] > 0 and o["distinct_cycle_counts"] > 1, o
    # The early exit: variant v agrees in v mod 17 leading bytes, so 17 distinct times, the
    # fastest where no byte agrees and the slowest where all 16 do.
    e = ops[(board, "ct_tag_compare_early_exit")]
    assert e["distinct_cycle_counts"] == 17, e
    assert e["fastest_variant"] % 17 == 0 and e["slowest_variant"] % 17 == 16, e
    # A leak's control (the secret fixed) is constant; ECDH's is not.
    for op in ("ct_tag_compare_early_exit", "ct_secret_branch", "ct_secret_divide"):
        assert ops[(board, op)]["control_spread_cycles"] == 0, ops[(board, op)]
    x = ops[(board, "ecdh_p256_shared")]
    assert x["control_spread_cycles"] > 0 and x["divergence"] is None, x

def divergence(board, op):
    o = ops[(board, op)]
    dv = o["divergence"]
    assert dv is not None and dv["error"] is None, o
    assert dv["fast_variant"] == o["fastest_variant"] and dv["slow_variant"] == o["slowest_variant"]
    assert dv["profile_cycles_slow"] > dv["profile_cycles_fast"], dv
    return {f["function"]: f for f in dv["functions"]}

for board in ("sim-m33", "sim-m0plus"):
    f = divergence(board, "ct_tag_compare_early_exit")["compare_early_exit"]
    assert f["self_cycles_slow"] > f["self_cycles_fast"], f
# The secret divide: UDIV inside divide() on the M33; libgcc's __udivsi3 (what __aeabi_uidiv
# is) on the M0+, which has no divider.
f = divergence("sim-m33", "ct_secret_divide")["divide"]
assert f["self_cycles_slow"] > f["self_cycles_fast"], f
f = divergence("sim-m0plus", "ct_secret_divide")
assert "__udivsi3" in f and f["__udivsi3"]["self_cycles_slow"] > f["__udivsi3"]["self_cycles_fast"], f
# The secret branch: the multiplications the set bits add are calls to libgcc's 64-bit modulo.
f = divergence("sim-m33", "ct_secret_branch")
assert "__udivmoddi4" in f and f["__udivmoddi4"]["calls_slow"] > f["__udivmoddi4"]["calls_fast"], f
PY

# No leak among the operations checked: exit 0, the table says constant and not checked.
expect_exit 0 "$FATHOM" ct "$SUITE" --board sim-m33 --op ct_tag_compare_constant --op sha256_1k \
  --variants 4
grep -qE '^ct_tag_compare_constant +mbedtls-ct +sim-m33 +constant +4 +160 +0 +1' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of the constant compare"; }
grep -qE '^sha256_1k +mbedtls-ct +sim-m33 +not checked' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of sha256_1k"; }
grep -qF "1 operation checked with 4 secret variants each: 0 leaks, 1 constant" "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table summary"; }

# --no-explain: the leak and its exit code, no profiles.
expect_exit 4 "$FATHOM" ct "$SUITE" --board sim-m0plus --op ct_secret_divide --variants 8 \
  --no-explain
grep -qE '^ct_secret_divide +mbedtls-ct +sim-m0plus +leak +8 ' "$WORK/out" ||
  { cat "$WORK/out" >&2; fail "table row of the divide leak"; }
grep -q "where they differ" "$WORK/out" && fail "--no-explain profiled the leak"

# Bad input: fewer than two variants, an operation the suite does not have.
expect_exit 2 "$FATHOM" ct "$SUITE" --variants 1
expect_exit 2 "$FATHOM" ct "$SUITE" --op no_such_op
expect_err "no_such_op"
exit 0
